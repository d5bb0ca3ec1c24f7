/**
 * Reverting one commit's change to one file onto the file as it is now: the commit's own diff,
 * reversed, applied without fuzz. When later commits touched the same lines the reversed hunks no
 * longer match and there is no clean revert — Medic then proposes nothing rather than a guess.
 */
import { applyPatch, structuredPatch } from 'diff';

export interface RevertInput {
  /** The file just before the commit (undefined: the commit created it). */
  before?: string;
  /** The file as the commit left it (undefined: the commit deleted it). */
  after?: string;
  /** The file now. */
  current: string;
}

/** The current file with the commit's change undone, or undefined when that does not apply cleanly. */
export function revertChange(input: RevertInput): string | undefined {
  const { before, after, current } = input;
  // A created or deleted file is not a one-file revert of a change inside it.
  if (before === undefined || after === undefined || before === after) return undefined;
  if (current === after) return before;
  const reverse = structuredPatch('file', 'file', after, before, '', '', { context: 3 });
  const reverted = applyPatch(current, reverse, { fuzzFactor: 0 });
  return reverted === false || reverted === current ? undefined : reverted;
}
