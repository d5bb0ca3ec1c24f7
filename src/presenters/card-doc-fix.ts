import type { SimilarDoc } from '../domain/analysis.js';
import type { Incident } from '../domain/incident.js';
import { defuse, escapeMrkdwn, section, untrusted } from './mrkdwn.js';

type Block = Record<string, unknown>;

/** As the offline analyzer's family match: below this the nearest document is a guess. */
const DOC_FAMILY_SIMILARITY = 0.35;
/** A documented fix longer than this is shown up to here, with where to read the rest. */
const MAX_FIX_CHARS = 900;
/** A section's heading, as the docs ingest names it (`<title> — Fix`), or a heading inside the text. */
const FIX_HEADING = /^(?:fix(?:es)?|resolution|remediation|workaround|solution|mitigation)\b/i;
const FIX_LINE = /^#{1,6}\s*(?:fix(?:es)?|resolution|remediation|workaround|solution|mitigation)\b/im;

/**
 * The documented fix of the incident's family, beside the proposal: the `Fix` (or `Resolution`,
 * `Remediation`, …) section of the nearest document, when that document is near enough to be the
 * family. Shown whole as the document writes it — its code spans and blocks as code, nothing
 * redacted (the docs are the operator's own); only what could forge a link or a mention is escaped.
 */
export function presentDocFix(incident: Incident): Block[] {
  const fix = documentedFix(incident.similarDocs ?? []);
  if (!fix) return [];
  const text = fix.excerpt.replace(/\n…\[truncated \d+ chars\]$/, '').trim();
  const cut = text.length > MAX_FIX_CHARS || text.length < fix.excerpt.trim().length;
  const shown = text.length > MAX_FIX_CHARS ? text.slice(0, text.lastIndexOf('\n', MAX_FIX_CHARS) > 0 ? text.lastIndexOf('\n', MAX_FIX_CHARS) : MAX_FIX_CHARS) : text;
  const where = cut ? `\n_The whole section is in ${untrusted(fix.source, 200)}._` : '';
  // "Payments: … — Fix" is shown as "Payments: …": the block's own heading already says which section.
  const title = fix.title.replace(/\s+—\s+[^—]*$/, (heading) => (FIX_HEADING.test(heading.replace(/^\s+—\s+/, '')) ? '' : heading));
  return [section(`📘 *Documented fix* · ${untrusted(title, 150)}: ${showDoc(joinSoftBreaks(shown))}${where}`, 'medic_doc_fix')];
}

/** The fix section of the nearest document, when the nearest document is the family's. */
export function documentedFix(docs: readonly SimilarDoc[]): SimilarDoc | undefined {
  const top = [...docs].sort((a, b) => b.similarity - a.similarity)[0];
  if (!top || top.similarity < DOC_FAMILY_SIMILARITY) return undefined;
  return docs.filter((d) => d.source === top.source && isFixSection(d)).sort((a, b) => b.similarity - a.similarity)[0];
}

function isFixSection(doc: SimilarDoc): boolean {
  const heading = doc.title.split(' — ').at(-1) ?? '';
  return FIX_HEADING.test(heading.trim()) || FIX_LINE.test(doc.excerpt);
}

/** A line Markdown starts a block with: a list item, heading, quote, table row, or indented code. */
const BLOCK_START = /^(?:\s*(?:[-*+]|\d+[.)])\s|\s*#{1,6}\s|\s*>|\s*\||\t| {4})/;

/**
 * Markdown's soft line breaks as spaces, as any Markdown reader shows them: a paragraph wrapped
 * at 80 columns in the document reads as one paragraph, not as lines cut mid-sentence. Code
 * fences, blank lines, list items, headings, quotes and tables keep their lines.
 */
export function joinSoftBreaks(text: string): string {
  const out: string[] = [];
  let fenced = false;
  let joinable = false;
  for (const line of text.split('\n')) {
    const fence = /^\s*```/.test(line);
    if (!fenced && !fence && joinable && line.trim() !== '' && !BLOCK_START.test(line)) out[out.length - 1] += ` ${line.trim()}`;
    else out.push(line);
    if (fence) fenced = !fenced;
    joinable = !fenced && !fence && line.trim() !== '' && !/^\s*(?:#{1,6}\s|\|)/.test(line);
  }
  return out.join('\n');
}

/** Markdown as mrkdwn: entities escaped and mentions defused; a fence left open is closed. */
function showDoc(text: string): string {
  const fences = text.match(/```/g)?.length ?? 0;
  const closed = fences % 2 === 1 ? `${text}\n\`\`\`` : text;
  // Slack shows a fence's language tag as text: the fence keeps only its code.
  return defuse(escapeMrkdwn(closed)).replace(/```[\w+-]+\n/g, '```\n');
}
