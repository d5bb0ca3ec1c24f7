import type { Incident } from '../domain/incident.js';
import type { IncidentView } from '../use-cases/incident-commands.js';
import { presentEvidenceLine } from './card-analysis.js';
import { presentFields } from './card-summary.js';
import { presentIncidentTitle } from './incident-title.js';
import { redactSecrets } from '../domain/untrusted/redact.js';
import { diffPages } from './diff-pages.js';
import { clipProse, code, context, escapeMrkdwn, plain, section, untrusted, untrustedDoc } from './mrkdwn.js';

type Block = Record<string, unknown>;

/** Slack allows 100 blocks in a modal; the diff gets what the analysis leaves. */
const MODAL_BLOCKS = 100;
const MAX_EVIDENCE_LINES = 12;

function evidence(incident: Incident): Block[] {
  const ids = new Set(incident.rca?.evidenceIds ?? []);
  const cited = (incident.logs?.entries ?? []).filter((entry) => ids.has(entry.id));
  if (cited.length === 0) return [];
  const lines = cited.slice(0, MAX_EVIDENCE_LINES).map((e) => presentEvidenceLine(e));
  const more = cited.length > MAX_EVIDENCE_LINES ? `\n+${cited.length - MAX_EVIDENCE_LINES} more in ${code(`npm run medic -- show ${incident.id}`)}` : '';
  return [section(`*Evidence* (${cited.length} cited line${cited.length === 1 ? '' : 's'} of this incident)\n\`\`\`${lines.join('\n')}\`\`\`${more}`, 'medic_evidence')];
}

function analysis(incident: Incident): Block[] {
  const blocks: Block[] = [];
  const rca = incident.rca;
  if (rca) {
    blocks.push(section(`*Root cause* · confidence ${Math.round(rca.confidence * 100)}%\n${untrusted(rca.rootCause, 1_800)}`, 'medic_rca_full'));
    if (rca.contributingFactors.length > 0) blocks.push(section(`*Contributing factors*\n${rca.contributingFactors.slice(0, 8).map((f) => `• ${untrusted(f, 240)}`).join('\n')}`, 'medic_factors'));
  }
  blocks.push(...evidence(incident));
  const docs = (incident.similarDocs ?? []).slice(0, 3);
  if (docs.length > 0) {
    // A doc's excerpt is markdown: clipped outside its fences, then escaped as prose.
    const lines = docs.map((d) => `• ~${Math.round(d.similarity * 100)}% *${untrusted(d.title, 120)}* — ${untrusted(d.source, 120)}\n${untrustedDoc(clipProse(d.excerpt.replace(/\s+/g, ' '), 240), 260)}`);
    blocks.push(section(`*Similar docs* (similarity is approximate)\n${lines.join('\n')}`, 'medic_docs'));
  }
  const changes = (incident.recentChanges ?? []).slice(0, 5);
  if (changes.length > 0) {
    blocks.push(section(`*Recent changes to the suspect code*\n${changes.map((c) => `• ${code(c.sha.slice(0, 7))} ${untrusted(c.subject, 120)} — ${untrusted(c.author, 60)}, ${escapeMrkdwn(c.date.slice(0, 10))} (${untrusted(c.files.slice(0, 3).join(', '), 160)})`).join('\n')}`, 'medic_changes'));
  }
  const rec = incident.recommendation;
  if (rec) {
    const steps = rec.steps.slice(0, 6).map((s, i) => `${i + 1}. ${untrusted(s, 200)}`);
    blocks.push(section(`*Recommendation* · ${rec.kind} · risk ${rec.risk}\n${untrusted(rec.summary, 600)}${steps.length ? `\n${steps.join('\n')}` : ''}`, 'medic_recommendation'));
  }
  if (incident.review) blocks.push(section(`*Re-run requested*${incident.review.reason ? `: ${untrusted(incident.review.reason, 600)}` : ''}`, 'medic_review'));
  if (incident.earlierFixes.length > 0) blocks.push(section(`*Earlier fix branches* (kept)\n${incident.earlierFixes.map((f) => `• ${code(f.branch)}${f.pullRequest ? ` · PR #${f.pullRequest.number}` : ''}`).join('\n')}`, 'medic_earlier'));
  if (incident.logs?.note) blocks.push(context(`Logs: ${untrusted(incident.logs.note, 300)}`));
  if (incident.proposalNote && !incident.proposal) blocks.push(context(untrusted(incident.proposalNote, 400)));
  return blocks;
}

/**
 * The View details modal: the whole analysis and the whole diff, exactly as it will be pushed
 * (invisible characters shown, nothing redacted or cut). A diff longer than the modal's room is
 * named as such and read in full in the card's thread.
 */
export function presentDetailsModal({ incident, stats }: IncidentView): Record<string, unknown> {
  const blocks: Block[] = [
    { type: 'header', text: { type: 'plain_text', text: plain(presentIncidentTitle(incident), 150) } },
    presentFields(incident, stats),
    context(`Incident \`${escapeMrkdwn(incident.id)}\` · ${escapeMrkdwn(incident.service)} · ${incident.severity}`),
    // The title shows each variable's most common value; the family it stands for is matched on this.
    context(`Family template: ${code(redactSecrets(incident.family?.template ?? incident.title), 600)}`),
    ...analysis(incident),
  ];
  const proposal = incident.proposal;
  if (proposal) {
    const pages = diffPages(proposal);
    const room = MODAL_BLOCKS - blocks.length - 2;
    blocks.push({ type: 'divider' }, section(`*Proposed fix* · ${code(proposal.file, 200)}\n${untrusted(proposal.explanation, 1_500)}`, 'medic_fix_head'));
    if (pages.length <= room) {
      pages.forEach((page, i) => blocks.push(section(`\`\`\`${page}\`\`\``, `medic_diff_${i}`)));
      blocks.push(context('The whole diff, exactly the bytes Approve would push: invisible and control characters are shown as ⟨U+XXXX⟩; nothing is redacted or cut.'));
    } else {
      blocks.push(context(`This diff has ${pages.length} pages, more than a dialog holds: read it whole in the card's thread or with \`npm run medic -- show ${escapeMrkdwn(incident.id)}\`.`));
    }
  }
  return {
    type: 'modal',
    callback_id: 'medic_details',
    title: { type: 'plain_text', text: 'Incident details' },
    close: { type: 'plain_text', text: 'Close' },
    blocks: blocks.slice(0, MODAL_BLOCKS),
  };
}
