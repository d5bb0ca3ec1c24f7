import type { Incident } from '../domain/incident.js';
import { diffFitsCard, diffStats, mixedScriptNote, previewLines } from './diff-pages.js';
import { presentRevertScope } from './card-revert.js';
import { code, context, section, untrusted } from './mrkdwn.js';

type Block = Record<string, unknown>;

/** How an operator reads the whole diff outside Slack. */
export function fullDiffHint(incidentId: string): string {
  return `\`npm run medic -- show ${untrusted(incidentId, 100)}\``;
}

/**
 * The fix on the card: file, size, one line of explanation — for a revert, what it undoes — and
 * the diff: whole when it fits the card (the head says so), else its first lines with the pointer
 * to the whole diff in the thread (posted before the card offers Approve, see the card step).
 * Never redacted, never cut mid-line; invisible characters are shown as ⟨U+XXXX⟩ and counted in a
 * note under the diff so nobody misses them.
 */
export function presentDiffPreview(incident: Incident): Block[] {
  const proposal = incident.proposal;
  if (!proposal) return [];
  const stats = diffStats(proposal);
  const lines = previewLines(proposal);
  const whole = diffFitsCard(proposal);
  const size = `+${stats.added} −${stats.removed}${whole ? ` · whole diff shown (${stats.lines} line${stats.lines === 1 ? '' : 's'})` : ''}`;
  const explanation = presentRevertScope(incident) ?? untrusted(proposal.explanation.replace(/\s+/g, ' '), 160);
  const head = `*Proposed fix* · ${code(proposal.file, 120)} · ${size}\n${explanation}`;
  // A first line too long for a preview is not cut: the preview is left out and the thread has it.
  const blocks = [section(lines.length > 0 ? `${head}\n\`\`\`${lines.join('\n')}\`\`\`` : head, 'medic_diff')];
  const notes = [
    whole ? '' : `Showing ${lines.length} of ${stats.lines} lines — the whole diff is in the thread.`,
    stats.invisible > 0 ? `⚠️ *${stats.invisible} invisible or control character${stats.invisible === 1 ? '' : 's'}* in the changed lines, shown as ⟨U+XXXX⟩.` : '',
    stats.secretShaped > 0 ? `⚠️ *${stats.secretShaped} changed line${stats.secretShaped === 1 ? '' : 's'} look like a secret* — shown as is; check before approving.` : '',
    stats.mixedScript.length > 0 ? mixedScriptNote(stats.mixedScript) : '',
  ].filter(Boolean);
  if (notes.length > 0) blocks.push({ ...context(notes.join(' ')), block_id: 'medic_diff_note' });
  return blocks;
}
