/**
 * A one-file change read as hunks, the way `git diff` groups it: runs of changed lines, where
 * changes fewer than two contexts apart share one hunk. And the line map between two versions of a
 * file, which says where a line of one sits in the other when nothing changed it. Pure.
 */
import { diffArrays } from 'diff';

/** Lines of unchanged context around each hunk, as `git diff` shows them. */
export const HUNK_CONTEXT = 3;

export interface ChangeHunk {
  /** 0-based, end-exclusive span of the lines the commit wrote, in the file as it left it. */
  afterStart: number;
  afterEnd: number;
  /** The same place in the file before the commit. */
  beforeStart: number;
  beforeEnd: number;
  /** The lines the commit wrote here (unchanged lines between merged changes left out): what reverting takes out. */
  added: string[];
  /** The lines the commit took out here (likewise): what reverting brings back. */
  removed: string[];
}

/** A file's lines; joining them with `\n` gives the text back exactly (a final newline is a last empty line). */
export function splitLines(text: string): string[] {
  return text.split('\n');
}

/** The hunks that turn `before` into `after`, in file order. */
export function changeHunks(before: string, after: string): ChangeHunk[] {
  const old = splitLines(before);
  const now = splitLines(after);
  const blocks: ChangeHunk[] = [];
  let b = 0;
  let a = 0;
  for (const part of diffArrays(old, now)) {
    const count = part.value.length;
    if (!part.added && !part.removed) {
      b += count;
      a += count;
      continue;
    }
    const last = blocks.at(-1);
    const open = last && last.afterEnd === a && last.beforeEnd === b ? last : undefined;
    const block = open ?? { afterStart: a, afterEnd: a, beforeStart: b, beforeEnd: b, added: [], removed: [] };
    if (!open) blocks.push(block);
    if (part.added) {
      block.added.push(...part.value);
      a += count;
      block.afterEnd = a;
    } else {
      block.removed.push(...part.value);
      b += count;
      block.beforeEnd = b;
    }
  }
  return mergeClose(blocks);
}

/**
 * Changes whose contexts would touch are one hunk, as in git: its span covers the lines between
 * them, while `added` and `removed` keep only the changed lines.
 */
function mergeClose(blocks: ChangeHunk[]): ChangeHunk[] {
  const hunks: ChangeHunk[] = [];
  for (const block of blocks) {
    const last = hunks.at(-1);
    if (last && block.afterStart - last.afterEnd <= 2 * HUNK_CONTEXT) {
      last.added.push(...block.added);
      last.removed.push(...block.removed);
      last.afterEnd = block.afterEnd;
      last.beforeEnd = block.beforeEnd;
    } else hunks.push({ ...block, added: [...block.added], removed: [...block.removed] });
  }
  return hunks;
}

/** The hunk's span in the file the commit left, with its context: what must still be there to undo it. */
export function hunkWindow(hunk: ChangeHunk, afterLength: number): { start: number; end: number } {
  return { start: Math.max(0, hunk.afterStart - HUNK_CONTEXT), end: Math.min(afterLength, hunk.afterEnd + HUNK_CONTEXT) };
}

/**
 * For each line of `from` (0-based), its index in `to` when the line is unchanged between them,
 * else undefined.
 */
export function lineMap(from: readonly string[], to: readonly string[]): (number | undefined)[] {
  const map: (number | undefined)[] = new Array<number | undefined>(from.length).fill(undefined);
  let f = 0;
  let t = 0;
  for (const part of diffArrays([...from], [...to])) {
    const count = part.value.length;
    if (part.added) t += count;
    else if (part.removed) f += count;
    else for (let i = 0; i < count; i++) map[f++] = t++;
  }
  return map;
}
