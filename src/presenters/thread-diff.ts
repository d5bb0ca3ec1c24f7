import type { Incident } from '../domain/incident.js';
import type { ChatMessage } from '../ports/chat.js';
import { LIMITS, measureText } from './block-limits.js';
import { diffPages, diffStats, mixedScriptNote } from './diff-pages.js';
import { code, section } from './mrkdwn.js';

/**
 * The whole diff as thread messages, for a diff too long for the card: every line, in order, as
 * many messages as it takes (each within Slack's per-message limits), numbered "part i of n".
 * Posted before the card offers Approve, so Approve only ever sits under a diff shown whole.
 */
export function presentThreadDiff(incident: Incident): ChatMessage[] {
  const proposal = incident.proposal;
  if (!proposal) return [];
  const pages = diffPages(proposal);
  const messages: string[][] = [];
  let current: string[] = [];
  for (const page of pages) {
    const block = `\`\`\`${page}\`\`\``;
    if (current.length > 0 && (measureText(current.map((t) => section(t))) + block.length > LIMITS.totalText - 600 || current.length >= 20)) {
      messages.push(current);
      current = [];
    }
    current.push(block);
  }
  if (current.length > 0) messages.push(current);
  const mixed = mixedScriptNote(diffStats(proposal).mixedScript);
  return messages.map((blocks, i) => {
    const head = `*Full diff* of ${code(proposal.file, 200)} · part ${i + 1} of ${messages.length}${i === 0 ? ` — exactly the bytes Approve would push: invisible and control characters shown as ⟨U+XXXX⟩, nothing redacted or cut.${mixed ? `\n${mixed}` : ''}` : ''}`;
    return { text: `Full diff, part ${i + 1} of ${messages.length}`, blocks: [section(head), ...blocks.map((b, j) => section(b, `medic_diff_${i}_${j}`))] };
  });
}
