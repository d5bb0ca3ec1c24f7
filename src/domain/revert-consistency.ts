/**
 * Whether undoing some hunks of a commit leaves the rest of the code consistent. Pure; the
 * repository reads it needs are named by `namesToLookUp` and done by the caller.
 *
 * A commit is often one change across several places: a function renamed and its callers
 * updated, a helper added and used elsewhere, a type reshaped and the code reading it adapted.
 * Undoing only the failing file's part of it must not leave the other parts pointing at what the
 * revert takes away, nor bring back a use of something the commit took away elsewhere. Read by
 * names, not by language: the names a hunk declares and the words it mentions.
 */
import type { ChangeHunk } from './change-hunks.js';
import { countMentions, declaredNames, mentionedNames } from './declared-names.js';

export interface KeptChange {
  /** Where it is, for the reason: `src/a.ts (lines 22–27)`. */
  label: string;
  hunk: ChangeHunk;
}

export interface ConsistencyInput {
  /** The reverted file as the revert leaves it. */
  revertedContent: string;
  /** The hunks the revert undoes. */
  reverted: readonly ChangeHunk[];
  /** The commit's changes the revert keeps: the file's other hunks and every hunk of its other files. */
  kept: readonly KeptChange[];
  /** Every file the commit changed, as it was before the commit. */
  beforeTexts: readonly string[];
}

export interface NamesToLookUp {
  /** Names the revert takes out of the file: nothing else may still use them. */
  removed: string[];
  /** Names of the repository the revert brings back a use of: something must still declare them. */
  restored: string[];
}

const lines = (text: string) => text.split('\n');
const list = (names: readonly string[]) => names.slice(0, 3).map((n) => `\`${n}\``).join(', ');
const files = (paths: readonly string[]) => `${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ` and ${paths.length - 3} more file(s)` : ''}`;

/**
 * The revert brings back a use of a name whose declaration the same commit removed in a change the
 * revert keeps (the type reshaped in the hunk above, the function renamed in another file).
 */
export function couplingRefusal(input: ConsistencyInput): string | undefined {
  const restored = mentionedNames(input.reverted.flatMap((h) => h.removed));
  const redeclared = declaredNames(input.kept.flatMap((k) => k.hunk.added), { members: true });
  for (const kept of input.kept) {
    const gone = [...declaredNames(kept.hunk.removed, { members: true })].filter((n) => !redeclared.has(n) && restored.has(n));
    if (gone.length > 0) {
      return `undoing only these lines would bring back ${list(gone)}, whose declaration the same commit removed in ${kept.label}, which the revert keeps: the code would no longer fit together`;
    }
  }
  return undefined;
}

/** The names whose use elsewhere in the repository decides whether the revert is consistent. */
export function namesToLookUp(input: ConsistencyInput): NamesToLookUp {
  const takenOut = input.reverted.flatMap((h) => h.added);
  const broughtBack = input.reverted.flatMap((h) => h.removed);
  const backDeclared = declaredNames(broughtBack, { members: true });
  const stillDeclared = new Set([...backDeclared, ...declaredNames(lines(input.revertedContent))]);
  const removed = [...declaredNames(takenOut)].filter((n) => !stillDeclared.has(n));
  const known = declaredNames(input.beforeTexts.flatMap(lines), { members: true });
  const backText = broughtBack.join('\n');
  // A name the reverted file still mentions outside the restored lines is there for them to use.
  const restored = [...mentionedNames(broughtBack)].filter((n) => known.has(n) && !backDeclared.has(n) && countMentions(input.revertedContent, n) <= countMentions(backText, n));
  return { removed, restored };
}

/**
 * The verdict once the other files were read: `usedIn` maps each looked-up name to the other
 * repository files that mention it; `complete` says whether every file could be read.
 */
export function lookupRefusal(input: ConsistencyInput, names: NamesToLookUp, usedIn: ReadonlyMap<string, readonly string[]>, complete: boolean): string | undefined {
  const stillUsed = names.removed.filter((n) => (usedIn.get(n)?.length ?? 0) > 0 || countMentions(input.revertedContent, n) > 0);
  if (stillUsed.length > 0) {
    const users = [...new Set(stillUsed.flatMap((n) => usedIn.get(n) ?? []))];
    const where = users.length > 0 ? files(users) : 'the rest of the file';
    return `the revert would remove ${list(stillUsed)}, which ${where} still use${users.length === 1 ? 's' : ''}: the commit's other changes depend on it`;
  }
  if (!complete && (names.removed.length > 0 || names.restored.length > 0)) {
    return `Medic could not read every file of the repository to check that nothing else depends on ${list([...names.removed, ...names.restored])}`;
  }
  const missing = names.restored.filter((n) => (usedIn.get(n)?.length ?? 0) === 0);
  if (missing.length > 0) return `the revert would bring back ${list(missing)}, which no longer exists anywhere in the repository (renamed or removed since)`;
  return undefined;
}
