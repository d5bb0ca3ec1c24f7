import type { Incident } from '../domain/incident.js';
import { section, untrusted, untrustedCode, untrustedDoc } from './mrkdwn.js';

type Block = Record<string, unknown>;

const MAX_EVIDENCE_LINES = 8;
const MAX_DOCS = 3;

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
  const lines = cited.slice(0, MAX_EVIDENCE_LINES).map((e) => untrustedCode(`${e.id} ${e.time.slice(11, 23)} ${e.level} ${e.service}: ${e.message}`, 220));
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
