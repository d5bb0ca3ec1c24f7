import { checkBlocksApproval } from '../../domain/proposal-check.js';
import type { CliCommand } from '../command.js';
import type { BootReader } from '../boot-reader.js';
import { readArgs } from '../read-args.js';
import { readIncident } from '../read-incident.js';
import { diffBody } from '../../presenters/diff-pages.js';
import { redactSecrets } from '../../domain/untrusted/redact.js';
import type { FixProposal } from '../../domain/fix.js';
import { terminalCode, terminalIo, terminalJson, terminalText } from '../terminal-output.js';
import { plainStatusWord } from '../../presenters/status-words.js';
import { presentIncidentTitle } from '../../presenters/incident-title.js';

/** The proposal's own strings: code, shown exactly as `approve` binds to it. */
const CODE_KEYS = new Set(['diff', 'before', 'after']);

/** Line numbers (1-based, in the printed diff) of the changed lines the redactor would touch: the card's flag. */
function secretShapedLines(proposal: FixProposal): number[] {
  const raw = proposal.diff.split('\n');
  const numbers: number[] = [];
  let at = 0;
  for (const line of diffBody(proposal)) {
    while (at < raw.length && raw[at] !== line.text) at++;
    if ((line.kind === 'added' || line.kind === 'removed') && redactSecrets(line.text) !== line.text) numbers.push(at + 1);
    at++;
  }
  return numbers;
}

/** `show <id> [--json]`: state, evidence, RCA, proposal (full diff) and the audit trail. */
export function createShowCommand(boot: BootReader): CliCommand {
  return {
    name: 'show',
    usage: 'show <incident> [--json]',
    summary: 'show one incident: evidence, RCA, proposal, audit trail',
    async run(args, rawIo) {
      const io = terminalIo(rawIo);
      const parsed = readArgs(args, io, this, { json: { type: 'boolean' } });
      if (typeof parsed === 'number') return parsed;
      const [id, ...extra] = parsed.positionals;
      if (!id || extra.length > 0) {
        io.stderr.write('usage: medic show <incident>\n');
        return 2;
      }
      return boot(io, async (reader) => {
        const found = await readIncident(io, reader, id);
        if (!found) return 1;
        const { view, trail } = found;
        if (parsed.values.json === true) {
          rawIo.stdout.write(terminalJson({ ...view, audit: trail }, 2, CODE_KEYS) + '\n');
          return 0;
        }
        const { incident, stats } = view;
        const out: string[] = [
          `${incident.id} · ${plainStatusWord(incident)} · ${incident.service} · ${incident.severity}`,
          `title: ${presentIncidentTitle(incident)}`,
          ...(incident.family ? [`family: ${incident.family.groupId} · ${incident.family.template}`] : []),
          `events: ${stats?.count ?? 0} (first ${stats?.firstSeen ?? '-'}, last ${stats?.lastSeen ?? '-'})`,
        ];
        if (incident.logs) out.push('', `log window (${incident.logs.entries.length} lines${incident.logs.note ? `; ${incident.logs.note}` : ''}):`, ...incident.logs.entries.slice(0, 20).map((e) => `  ${e.id} ${e.time} ${e.level} [${e.service}] ${e.message.split('\n', 1)[0]?.slice(0, 160) ?? ''}`));
        if (incident.similarDocs?.length) out.push('', 'similar docs:', ...incident.similarDocs.map((d) => `  ~${d.similarity.toFixed(2)} ${d.title} (${d.source})`));
        if (incident.rca) out.push('', `root cause (${Math.round(incident.rca.confidence * 100)}%, ${incident.provenance.rca?.analyst ?? '?'}): ${incident.rca.rootCause}`, `evidence: ${incident.rca.evidenceIds.join(', ') || 'none'}`);
        if (incident.recommendation) out.push(`recommendation (${incident.recommendation.kind}): ${incident.recommendation.summary}`);
        // Prose is redacted line by line below; the diff is code and is written exactly, once.
        let diff: { after: number; text: string; flagged: number[] } | undefined;
        if (incident.proposal) {
          out.push('', `proposal ${incident.proposal.contentHash} for ${incident.proposal.file}:`);
          diff = { after: out.length, text: terminalCode(incident.proposal.diff.replace(/\n$/, '')), flagged: secretShapedLines(incident.proposal) };
          if (diff.flagged.length > 0) out.push(`warning: ${diff.flagged.length} changed line${diff.flagged.length === 1 ? '' : 's'} look like a secret (diff line${diff.flagged.length === 1 ? '' : 's'} ${diff.flagged.join(', ')}) — shown as is; check before approving.`);
          const check = incident.proposalCheck?.contentHash === incident.proposal.contentHash ? incident.proposalCheck : undefined;
          out.push(`check: ${check ? `${check.status}${check.command ? ` (${check.command})` : ''}${check.reason ? ` — ${check.reason}` : ''}` : 'not checked'}`);
          const blocked = checkBlocksApproval(incident.proposal, incident.proposalCheck);
          if (blocked) out.push(blocked);
          else if (incident.state === 'awaiting_approval') out.push(`approve exactly this diff with: npm run medic -- approve ${incident.id} ${incident.proposal.contentHash}`);
        }
        if (incident.proposalNote) out.push(`no fix: ${incident.proposalNote}`);
        if (incident.fix) out.push('', `fix: branch ${incident.fix.branch} commit ${incident.fix.commit} push ${incident.fix.pushStatus}${incident.fix.pullRequest ? ` PR ${incident.fix.pullRequest.url}` : ''}`);
        if (incident.error) out.push(`error: ${incident.error}`);
        out.push('', 'audit trail:', ...trail.map((a) => `  ${a.at} ${a.action} ${a.outcome} by ${a.actor.kind}:${a.actor.id}${a.reason ? ` — ${a.reason}` : ''}`));
        const prose = (lines: string[]) => lines.map((line) => `${terminalText(line)}\n`).join('');
        rawIo.stdout.write(diff ? `${prose(out.slice(0, diff.after))}${diff.text}\n${prose(out.slice(diff.after))}` : prose(out));
        return 0;
      });
    },
  };
}
