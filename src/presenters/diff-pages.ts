import type { FixProposal } from '../domain/fix.js';
import { redactSecrets } from '../domain/untrusted/redact.js';
import { breakFences, defuse, escapeMrkdwn } from './mrkdwn.js';
import { countInvisible, showInvisible } from './visible-text.js';

/**
 * The diff as an approver must see it: every line, never redacted, never cut, with invisible and
 * control characters shown as ⟨U+XXXX⟩. Only Slack's entities are escaped (Slack turns them back
 * into the characters) and ``` runs get an invisible break so the code block cannot be closed
 * early — the content's own invisible characters are always shown, so none of them is hidden
 * among ours.
 */

/** A diff that fits the card whole needs no second place to be read: Approve sits under it. */
export const CARD_DIFF_LINES = 12;
const CARD_DIFF_CHARS = 1_400;
/** Characters of escaped code per code block: a section holds 3,000 with the fences and a title. */
const PAGE_CHARS = 2_800;
const LINE_CHUNK = 2_600;
export const CONTINUES = '⟨line continues⟩';

/** The diff's lines without the `diff` package's `Index:` and `====` preamble. */
export function diffLines(proposal: FixProposal): string[] {
  const lines = proposal.diff.split('\n').filter((line) => !line.startsWith('Index: ') && !/^=+$/.test(line));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The lines a reader needs once the file is named: hunks and their content, no ---/+++ header. */
export function bodyLines(proposal: FixProposal): string[] {
  return diffLines(proposal).filter((line) => !line.startsWith('--- ') && !line.startsWith('+++ '));
}

export function renderLine(line: string): string {
  return breakFences(defuse(escapeMrkdwn(showInvisible(line))));
}

export function diffStats(proposal: FixProposal): { added: number; removed: number; lines: number; invisible: number; secretShaped: number } {
  const body = bodyLines(proposal);
  const changed = body.filter((l) => (l.startsWith('+') || l.startsWith('-')));
  return {
    added: body.filter((l) => l.startsWith('+')).length,
    removed: body.filter((l) => l.startsWith('-')).length,
    lines: body.length,
    invisible: changed.reduce((n, l) => n + countInvisible(l), 0),
    // Flagged, never masked: what is shown must be what is pushed.
    secretShaped: changed.filter((l) => redactSecrets(l) !== l).length,
  };
}

/** True when the card can show the whole diff body, so nothing needs to be read elsewhere first. */
export function diffFitsCard(proposal: FixProposal): boolean {
  const body = bodyLines(proposal).map(renderLine);
  return body.length <= CARD_DIFF_LINES && body.reduce((n, l) => n + l.length + 1, 0) <= CARD_DIFF_CHARS;
}

/** The first lines for a card preview (all of them when the diff fits). */
export function previewLines(proposal: FixProposal, max = 8): string[] {
  const body = bodyLines(proposal).map(renderLine);
  if (diffFitsCard(proposal)) return body;
  const shown: string[] = [];
  let size = 0;
  for (const line of body) {
    if (shown.length >= max || size + line.length > 900) break;
    shown.push(line);
    size += line.length + 1;
  }
  return shown;
}

/**
 * The whole diff, header included, split into code-block pages of at most PAGE_CHARS. A line
 * longer than a page is split into chunks, each but the last ending in ⟨line continues⟩.
 */
export function diffPages(proposal: FixProposal): string[] {
  const pages: string[] = [];
  let page: string[] = [];
  let size = 0;
  const push = (line: string) => {
    if (size + line.length + 1 > PAGE_CHARS && page.length > 0) {
      pages.push(page.join('\n'));
      page = [];
      size = 0;
    }
    page.push(line);
    size += line.length + 1;
  };
  for (const raw of diffLines(proposal)) {
    const line = renderLine(raw);
    if (line.length <= LINE_CHUNK) {
      push(line);
      continue;
    }
    for (let at = 0; at < line.length;) {
      let end = Math.min(line.length, at + LINE_CHUNK);
      // Never split an entity (&amp;) or an inert fence break.
      const amp = line.lastIndexOf('&', end);
      if (end < line.length && amp > end - 6 && amp >= at && !line.slice(amp, end).includes(';')) end = amp;
      while (end < line.length && end > at + 1 && (line[end - 1] === '`' || /[\uD800-\uDBFF]/.test(line[end - 1] ?? ''))) end--;
      push(end < line.length ? `${line.slice(at, end)}${CONTINUES}` : line.slice(at, end));
      at = end;
    }
  }
  if (page.length > 0) pages.push(page.join('\n'));
  return pages;
}
