import type { Incident } from '../domain/incident.js';
import { diffFitsCard, diffStats, mixedScriptNote, previewLines } from './diff-pages.js';
import { code, context, section, untrusted } from './mrkdwn.js';

type Block = Record<string, unknown>;

/** How an operator reads the whole diff outside Slack. */
export function fullDiffHint(incidentId: string): string {
  return `\`npm run medic -- show ${untrusted(incidentId, 100)}\``;
}

/**
 * The fix on the card: file, size, one line of explanation and the diff — whole when it fits the
 * card, else its first lines with the pointer to the whole diff in the thread (posted before the
 * card offers Approve, see the card step). Never redacted, never cut mid-line; invisible characters
 * are shown as ⟨U+XXXX⟩ and counted here so nobody misses them.
 */
export function presentDiffPreview(incident: Incident): Block[] {
  const proposal = incident.proposal;
  if (!proposal) return [];
  const stats = diffStats(proposal);
  const lines = previewLines(proposal);
  const head = `*Proposed fix* · ${code(proposal.file, 120)} · +${stats.added} −${stats.removed}\n${untrusted(proposal.explanation.replace(/\s+/g, ' '), 160)}`;
  // A first line too long for a preview is not cut: the preview is left out and the thread has it.
  const blocks = [section(lines.length > 0 ? `${head}\n\`\`\`${lines.join('\n')}\`\`\`` : head, 'medic_diff')];
  const whole = diffFitsCard(proposal)
    ? `Whole diff shown (${stats.lines} line${stats.lines === 1 ? '' : 's'}).`
    : `Showing ${lines.length} of ${stats.lines} lines — the whole diff is in the thread.`;
  const invisible = stats.invisible > 0 ? ` ⚠️ *${stats.invisible} invisible or control character${stats.invisible === 1 ? '' : 's'}* in the changed lines, shown as ⟨U+XXXX⟩.` : '';
  const secret = stats.secretShaped > 0 ? ` ⚠️ *${stats.secretShaped} changed line${stats.secretShaped === 1 ? '' : 's'} look like a secret* — shown as is; check before approving.` : '';
  const mixed = stats.mixedScript.length > 0 ? ` ${mixedScriptNote(stats.mixedScript)}` : '';
  blocks.push({ ...context(`${whole}${invisible}${secret}${mixed}`), block_id: 'medic_diff_note' });
  return blocks;
}
