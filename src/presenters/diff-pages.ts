import { parseDiffBody, type DiffBodyLine } from '../domain/diff-hunks.js';
import type { FixProposal } from '../domain/fix.js';
import { findMixedScriptIdentifiers, type MixedScriptIdentifier } from '../domain/untrusted/mixed-script.js';
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

// One card render reads the body several times (stats, fit, preview); it is parsed once.
const bodyCache = new WeakMap<FixProposal, DiffBodyLine[]>();

/**
 * The lines a reader needs once the file is named: every hunk's header and content, read by the
 * hunks' line counts — an added line that starts `+++ ` is content, never a header. A diff that
 * does not parse is shown whole, header included: more than needed, never less.
 */
export function diffBody(proposal: FixProposal): DiffBodyLine[] {
  const cached = bodyCache.get(proposal);
  if (cached) return cached;
  const body = parseDiffBody(proposal.diff)
    ?? diffLines(proposal).map((text): DiffBodyLine => ({ kind: text.startsWith('+') ? 'added' : text.startsWith('-') ? 'removed' : 'context', text }));
  bodyCache.set(proposal, body);
  return body;
}

export function bodyLines(proposal: FixProposal): string[] {
  return diffBody(proposal).map((line) => line.text);
}

export function renderLine(line: string): string {
  return breakFences(defuse(escapeMrkdwn(showInvisible(line))));
}

export interface DiffStats {
  added: number; removed: number; lines: number; invisible: number; secretShaped: number;
  /** Identifiers of the added lines that mix scripts (`isAdmіn` with a Cyrillic і). */
  mixedScript: MixedScriptIdentifier[];
}

// One card render asks several times; the secret scan reads every changed line once.
const statsCache = new WeakMap<FixProposal, DiffStats>();

export function diffStats(proposal: FixProposal): DiffStats {
  const cached = statsCache.get(proposal);
  if (cached) return cached;
  const body = diffBody(proposal);
  const changed = body.filter((l) => l.kind === 'added' || l.kind === 'removed').map((l) => l.text);
  const stats = {
    added: body.filter((l) => l.kind === 'added').length,
    removed: body.filter((l) => l.kind === 'removed').length,
    lines: body.length,
    invisible: changed.reduce((n, l) => n + countInvisible(l), 0),
    // Flagged, never masked: what is shown must be what is pushed.
    secretShaped: countSecretShaped(changed),
    mixedScript: mixedScriptOf(body.filter((l) => l.kind === 'added').map((l) => l.text.slice(1))),
  };
  statsCache.set(proposal, stats);
  return stats;
}

/** True when the card can show the whole diff body, so nothing needs to be read elsewhere first. */
export function diffFitsCard(proposal: FixProposal): boolean {
  const lines = bodyLines(proposal);
  if (lines.length > CARD_DIFF_LINES) return false;
  return lines.map(renderLine).reduce((n, l) => n + l.length + 1, 0) <= CARD_DIFF_CHARS;
}

/** The first lines for a card preview (all of them when the diff fits). */
export function previewLines(proposal: FixProposal, max = 8): string[] {
  if (diffFitsCard(proposal)) return bodyLines(proposal).map(renderLine);
  const shown: string[] = [];
  let size = 0;
  for (const raw of bodyLines(proposal).slice(0, max)) {
    const line = renderLine(raw);
    if (size + line.length > 900) break;
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

function mixedScriptOf(lines: string[]): MixedScriptIdentifier[] {
  const seen = new Map<string, MixedScriptIdentifier>();
  for (const line of lines) for (const found of findMixedScriptIdentifiers(line)) seen.set(found.identifier, found);
  return [...seen.values()];
}

/**
 * The warning an approver reads for look-alike identifiers, each named with the code points of
 * its letters outside ASCII: `isAdmіn` (Latin + Cyrillic; і U+0456).
 */
export function mixedScriptNote(found: readonly MixedScriptIdentifier[]): string {
  if (found.length === 0) return '';
  const named = found.slice(0, 5).map(({ identifier, scripts }) => {
    const foreign = [...new Set([...identifier].filter((c) => c >= '\u0080'))].slice(0, 4).map((c) => `${c} U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
    return `${renderLine(identifier.slice(0, 80))} (${scripts.join(' + ')}; ${foreign.join(', ')})`;
  });
  const more = found.length > 5 ? ` and ${found.length - 5} more` : '';
  return `⚠️ *${found.length} added identifier${found.length === 1 ? ' mixes' : 's mix'} scripts* — a look-alike of another name: ${named.join(', ')}${more}.`;
}

/** Changed lines the redactor would touch: one pass over all of them, compared line by line. */
function countSecretShaped(lines: string[]): number {
  if (lines.length === 0) return 0;
  const redacted = redactSecrets(lines.join('\n')).split('\n');
  if (redacted.length !== lines.length) return lines.filter((l) => redactSecrets(l) !== l).length;
  return lines.reduce((n, line, i) => n + (redacted[i] === line ? 0 : 1), 0);
}
