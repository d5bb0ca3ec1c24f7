/**
 * Reverting the part of one commit's change to one file that made the failing lines what they
 * are, onto the file as it is now. Only the commit's hunks whose span — the changed lines and
 * their three lines of context, as `git diff` shows them — holds a failing line are undone; the
 * rest of the commit stays. A hunk is undone only where it and its context are still exactly as
 * the commit left them (no fuzz): when a later commit touched them there is no clean revert, and
 * Medic proposes nothing rather than a guess.
 */
import { changeHunks, hunkWindow, lineMap, splitLines, type ChangeHunk } from '../domain/change-hunks.js';

export interface RevertInput {
  /** The file just before the commit. */
  before: string;
  /** The file as the commit left it. */
  after: string;
  /** The file now. */
  current: string;
}

export type HunkRevert =
  | { ok: true; after: string; reverted: ChangeHunk[]; kept: ChangeHunk[]; afterLength: number }
  | { ok: false; why: 'no-change' | 'not-covered' | 'not-clean' };

/** The current file with the hunks holding `failingLines` (1-based, of the current file) undone. */
export function revertFailingHunks(input: RevertInput & { failingLines: readonly number[] }): HunkRevert {
  const hunks = changeHunks(input.before, input.after);
  if (hunks.length === 0) return { ok: false, why: 'no-change' };
  const now = splitLines(input.after);
  const toAfter = lineMap(splitLines(input.current), now);
  const failing = input.failingLines.map((line) => toAfter[line - 1]).filter((i): i is number => i !== undefined);
  const covers = (hunk: ChangeHunk) => {
    const { start, end } = hunkWindow(hunk, now.length);
    return failing.some((i) => i >= start && i < end);
  };
  const reverted = hunks.filter(covers);
  if (reverted.length === 0) return { ok: false, why: 'not-covered' };
  const after = revertHunks({ ...input, hunks: reverted });
  if (after === undefined) return { ok: false, why: 'not-clean' };
  return { ok: true, after, reverted, kept: hunks.filter((h) => !covers(h)), afterLength: now.length };
}

/** The current file with `hunks` of the commit undone, or undefined when one does not apply exactly. */
export function revertHunks(input: RevertInput & { hunks: readonly ChangeHunk[] }): string | undefined {
  const old = splitLines(input.before);
  const now = splitLines(input.after);
  const map = lineMap(now, splitLines(input.current));
  const out = splitLines(input.current);
  // Bottom up, so each splice leaves the places of the hunks above it where they were.
  for (const hunk of [...input.hunks].sort((x, y) => y.afterStart - x.afterStart)) {
    const { start, end } = hunkWindow(hunk, now.length);
    const base = map[start];
    if (base === undefined) return undefined;
    for (let i = start; i < end; i++) if (map[i] !== base + (i - start)) return undefined;
    out.splice(base + (hunk.afterStart - start), hunk.afterEnd - hunk.afterStart, ...old.slice(hunk.beforeStart, hunk.beforeEnd));
  }
  const reverted = out.join('\n');
  return reverted === input.current ? undefined : reverted;
}

/** Where a hunk of the commit sits in the current file (1-based, inclusive), when it is still there. */
export function currentSpan(hunk: ChangeHunk, input: Pick<RevertInput, 'after' | 'current'>): { start: number; end: number } | undefined {
  const map = lineMap(splitLines(input.after), splitLines(input.current));
  const first = map[hunk.afterStart];
  const last = map[Math.max(hunk.afterStart, hunk.afterEnd - 1)];
  if (first === undefined || last === undefined) return undefined;
  return { start: first + 1, end: last + 1 };
}
