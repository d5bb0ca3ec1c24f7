import type { Incident } from '../domain/incident.js';
import { context, section, untrusted, untrustedCode } from './mrkdwn.js';

type Block = Record<string, unknown>;

const MAX_DIFF_LINES = 40;
const MAX_DIFF_CHARS = 2_200;

/** How an operator sees what the card had to cut. */
export function fullDiffHint(incidentId: string): string {
  const id = untrusted(incidentId, 100);
  return `Full diff: \`npm run medic -- show ${id}\` or \`/medic status ${id}\``;
}

/**
 * The diff preview: the first lines of the unified diff, cut on a line boundary so the reader never
 * sees half a hunk header, with the count of what was left out and where to read all of it.
 */
export function presentDiffPreview(incident: Incident): Block[] {
  const proposal = incident.proposal;
  if (!proposal) return [];
  // The `diff` package starts with "Index:"/"====" lines; the --- / +++ header is enough.
  const all = proposal.diff.split('\n').filter((line) => !line.startsWith('Index: ') && !/^=+$/.test(line));
  const shown: string[] = [];
  let size = 0;
  for (const line of all) {
    const safe = untrustedCode(line, 200);
    if (shown.length >= MAX_DIFF_LINES || size + safe.length + 1 > MAX_DIFF_CHARS) break;
    shown.push(safe);
    size += safe.length + 1;
  }
  const cut = all.length - shown.length;
  const head = `*Proposed fix* · \`${untrusted(proposal.file, 200)}\`\n${untrusted(proposal.explanation, 300)}`;
  const blocks = [section(`${head}\n\`\`\`${shown.join('\n')}\`\`\``, 'medic_diff')];
  blocks.push(context(cut > 0 ? `Diff truncated: ${shown.length} of ${all.length} lines shown. ${fullDiffHint(incident.id)}` : fullDiffHint(incident.id)));
  return blocks;
}
