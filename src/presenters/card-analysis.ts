import type { LogEntry } from '../domain/event.js';
import type { Incident } from '../domain/incident.js';
import { withoutChangedBy } from '../domain/changed-by-clause.js';
import { isUndetermined } from '../domain/undetermined-cause.js';
import { presentRevertScope } from './card-revert.js';
import { section, untrusted, untrustedCode, untrustedDoc } from './mrkdwn.js';

type Block = Record<string, unknown>;

const MAX_EVIDENCE_LINES = 8;
const MAX_DOCS = 3;
/** At 900 px a card line holds 100 to 110 characters, wrapped on words: three lines of root cause, no more. */
const CARD_ROOT_CAUSE_CHARS = 300;
/** An evidence line's first line holds its clues (`decision=declined`, `detail="…"`): room for them. */
const EVIDENCE_LINE_CHARS = 320;

/**
 * What a proposal shown under an undetermined cause rests on, said before the proposal is read:
 * a revert on blame alone, any other fix on the model's reading of the code. Undefined when the
 * cause is determined or nothing is proposed.
 */
export function proposalBasis(incident: Incident): string | undefined {
  const { rca, proposal } = incident;
  if (!rca || !proposal || !isUndetermined(rca)) return undefined;
  const revert = proposal.revertOf;
  if (!revert) return "Undetermined cause — the proposal below is based only on the model's reading of the code, not on a known cause.";
  const blamed = incident.suspectCommits?.find((s) => s.sha === revert.sha);
  const line = blamed ? ` (${revert.sha.slice(0, 8)} last changed ${blamed.file}:${blamed.line})` : ` (${revert.sha.slice(0, 8)})`;
  return `Undetermined cause — the proposal below is based only on the suspect commit's blame${line}.`;
}

/**
 * The card's root cause in at most three lines, the analysis's own order kept (a documented cause
 * leads, then where it was thrown); under an undetermined cause with a proposal, what the proposal
 * is based on comes first; the commit a revert undoes is named by the revert's line, not again
 * here. The whole text is in View details.
 */
export function presentCardRootCause(incident: Incident): Block[] {
  const rca = incident.rca;
  if (!rca) return [];
  const basis = proposalBasis(incident);
  // A revert's line names its commit (sha, subject, author, age): the root cause does not repeat it.
  const reverted = presentRevertScope(incident) ? incident.proposal?.revertOf?.sha : undefined;
  const text = (reverted ? withoutChangedBy(rca.rootCause, reverted) : rca.rootCause).replace(/\s+/g, ' ').trim();
  // The basis already says "Undetermined cause": the text goes on from what it knows.
  const rest = basis ? text.replace(/^undetermined(?: cause)?[\s,:;.—-]*/i, '') : text;
  const cause = untrusted(rest.charAt(0).toUpperCase() + rest.slice(1), CARD_ROOT_CAUSE_CHARS);
  return [section(basis ? `*Root cause* _${untrusted(basis, 300)}_\n${cause}` : `*Root cause* ${cause}`, 'medic_rca')];
}

/** One evidence line: its time, level, service and first line — the message with its clue fields. */
export function presentEvidenceLine(entry: LogEntry, withId = false): string {
  const first = entry.message.split('\n', 1)[0] ?? '';
  const more = entry.message.length > first.length ? ' ⏎…' : '';
  return untrustedCode(`${withId ? `${entry.id} ` : ''}${entry.time.slice(11, 23)} ${entry.level} ${entry.service}: ${first}${more}`, EVIDENCE_LINE_CHARS);
}

export function presentRootCause(incident: Incident): Block[] {
  const rca = incident.rca;
  if (!rca) return [];
  const confidence = Math.round(rca.confidence * 100);
  // Blame's suspect: the commit that last changed the failing line (its text is untrusted).
  const suspect = incident.suspectCommits?.[0];
  const suspectLine = suspect
    ? `\n*Suspect commit* \`${untrusted(suspect.sha.slice(0, 10), 10)}\` · ${untrusted(suspect.author, 60)} · ${suspect.ageDays} day(s) before the first error · ${untrusted(suspect.subject, 120)} (${untrusted(`${suspect.file}:${suspect.line}`, 160)})`
    : '';
  const blocks = [section(`*Root cause* · confidence ${confidence}%\n${untrusted(rca.rootCause, 1_400)}${suspectLine}`, 'medic_rca')];
  if (rca.contributingFactors.length > 0) {
    const factors = rca.contributingFactors.slice(0, 5).map((f) => `• ${untrusted(f, 150)}`);
    blocks.push(section(`*Contributing factors*\n${factors.join('\n')}`));
  }
  return blocks;
}

/** The log lines the RCA cites, and only those: the analyst's evidence ids filter the window. */
export function presentEvidence(incident: Incident): Block[] {
  const ids = new Set(incident.rca?.evidenceIds ?? []);
  const cited = (incident.logs?.entries ?? []).filter((entry) => ids.has(entry.id));
  if (cited.length === 0) return [];
  const lines = cited.slice(0, MAX_EVIDENCE_LINES).map((e) => presentEvidenceLine(e, true));
  const more = cited.length > MAX_EVIDENCE_LINES ? `\n_+${cited.length - MAX_EVIDENCE_LINES} more cited line(s) in \`npm run medic -- show ${untrusted(incident.id, 100)}\`_` : '';
  return [section(`*Evidence* (${cited.length} cited line${cited.length === 1 ? '' : 's'})\n\`\`\`${lines.join('\n')}\`\`\`${more}`, 'medic_evidence')];
}

/** Similar docs with their similarity, shown as approximate: it is a vector-space cosine. */
export function presentSimilarDocs(incident: Incident): Block[] {
  const docs = (incident.similarDocs ?? []).slice(0, MAX_DOCS);
  if (docs.length === 0) return [];
  const lines = docs.map((d) => `• ~${Math.round(d.similarity * 100)}% *${untrusted(d.title, 120)}* — ${untrusted(d.source, 120)}\n   _${untrustedDoc(d.excerpt, 160)}_`);
  return [section(`*Similar docs* (similarity is approximate)\n${lines.join('\n')}`, 'medic_docs')];
}

export function presentRecommendation(incident: Incident): Block[] {
  const rec = incident.recommendation;
  if (!rec) return [];
  const steps = rec.steps.slice(0, 5).map((s, i) => `${i + 1}. ${untrusted(s, 180)}`);
  return [section(`*Recommendation* · ${rec.kind} · risk ${rec.risk}\n${untrusted(rec.summary, 600)}${steps.length ? `\n${steps.join('\n')}` : ''}`, 'medic_recommendation')];
}
