/**
 * A revert proposal that needs no model: of the most suspect recent commit's change to its file,
 * only the hunks that made the failing lines what they are, undone on the file as it is now — when
 * they undo cleanly, the revert policy allows it (never access-control code, a protected path, a
 * commit its message calls a fix, or lines that are access checks), and the rest of the code stays
 * consistent without them (revert-consistency.ts). Reads go through the CodeRepository port (the
 * gateway in the pipeline).
 */
import type { SuspectCommit } from '../domain/analysis.js';
import { changeHunks } from '../domain/change-hunks.js';
import { lineWords, type LineSpan, type RevertCandidate } from '../domain/fix.js';
import { couplingRefusal, lookupRefusal, namesToLookUp, type ConsistencyInput, type KeptChange } from '../domain/revert-consistency.js';
import { otherFilesOf, revertRefusal } from '../domain/revert-policy.js';
import type { CodeRepository, CommitFileChange } from '../ports/code.js';
import { protectedPathReason } from '../code-search/protected-paths.js';
import { currentSpan, revertFailingHunks } from '../code-search/revert-change.js';
import { findNameUses } from './find-name-uses.js';
import { isRecentSuspect } from './find-suspect-commits.js';

export type RevertOutcome = { revert: RevertCandidate } | { note: string };

export interface FindRevertOptions {
  maxAgeDays: number;
  /** The error's failing lines by file (findFailingLines); each suspect's own line counts too. */
  failingLines?: ReadonlyMap<string, readonly number[]>;
  /** Most repository files read to check that nothing else depends on what the revert removes. */
  maxFilesRead?: number;
}

/** A commit changing more files than this is not checked file by file: no revert is proposed. */
const MAX_OTHER_FILES = 30;

export async function findRevert(repo: CodeRepository, suspects: readonly SuspectCommit[], options: FindRevertOptions): Promise<RevertOutcome> {
  const recent = suspects.filter((s) => isRecentSuspect(s, options.maxAgeDays));
  if (recent.length === 0) {
    const newest = suspects[0];
    return { note: newest ? `No revert proposed: suspect commit ${newest.sha.slice(0, 8)} is ${newest.ageDays} day(s) older than the first error (MEDIC_REVERT_MAX_AGE_DAYS is ${options.maxAgeDays}).` : 'No revert proposed: no suspect commit.' };
  }
  const notes: string[] = [];
  for (const suspect of recent) {
    const outcome = await revertOf(repo, suspect, failingLinesOf(suspect, suspects, options.failingLines), options);
    if ('revert' in outcome) return outcome;
    notes.push(outcome.note);
  }
  return { note: `No revert proposed: ${notes.join('; ')}.` };
}

/** The suspect file's failing lines: the frames' lines in it, and every suspect's line there. */
function failingLinesOf(suspect: SuspectCommit, suspects: readonly SuspectCommit[], byFile: FindRevertOptions['failingLines']): number[] {
  const lines = [...(byFile?.get(suspect.file) ?? []), ...suspects.filter((s) => s.file === suspect.file).map((s) => s.line)];
  return [...new Set(lines)].sort((a, b) => a - b);
}

async function revertOf(repo: CodeRepository, suspect: SuspectCommit, failing: number[], options: FindRevertOptions): Promise<RevertOutcome> {
  const short = suspect.sha.slice(0, 8);
  const path = suspect.pathAtCommit ?? suspect.file;
  const change = await repo.commitFileChange(suspect.sha, path).catch(() => undefined);
  const current = await repo.readFile(suspect.file).catch(() => undefined);
  if (!change || current === undefined) return { note: `${short}'s change to ${suspect.file} could not be read` };
  // The file and the message decide first; the lines the revert would take out, once they are known.
  const policy = (addedLines: string[]) => revertRefusal({ sha: suspect.sha, subject: suspect.subject, message: change.message, files: [...new Set([suspect.file, path])], addedLines }, (f) => protectedPathReason(f));
  const refused = policy([]);
  if (refused) return { note: refused };
  // A created or deleted file is not a revert of a change inside it.
  if (change.before === undefined || change.after === undefined) return { note: `${short} created or deleted ${suspect.file}, which no revert of a change inside it undoes` };
  const result = revertFailingHunks({ before: change.before, after: change.after, current, failingLines: failing });
  if (!result.ok) {
    if (result.why === 'not-covered') return { note: `none of ${short}'s changes to ${suspect.file} is at a failing line (${failing.join(', ')})` };
    return { note: `${short}'s change to ${suspect.file} does not revert cleanly onto the current file` };
  }
  const files = change.files ?? [path];
  const refusal = policy(result.reverted.flatMap((h) => h.added).filter((l) => l.trim() !== ''));
  if (refusal) return { note: refusal };
  const otherFiles = otherFilesOf({ files }, path);
  if (otherFiles.length > MAX_OTHER_FILES) return { note: `${short} changed ${files.length} files; Medic checks a partial revert against at most ${MAX_OTHER_FILES + 1}` };
  const others = await Promise.all(otherFiles.map((f) => repo.commitFileChange(suspect.sha, f).catch(() => undefined)));
  const unread = otherFiles.filter((_f, i) => others[i] === undefined);
  if (unread.length > 0) return { note: `Medic could not read ${short}'s change to ${unread.slice(0, 3).join(', ')} to check the revert against it` };
  const spanOf = (hunk: Parameters<typeof currentSpan>[0]): LineSpan => currentSpan(hunk, { after: change.after ?? '', current }) ?? { start: hunk.afterStart + 1, end: Math.max(hunk.afterStart + 1, hunk.afterEnd) };
  const kept: KeptChange[] = [
    ...result.kept.map((hunk) => ({ label: `${suspect.file} (${lineWords(spanOf(hunk))})`, hunk })),
    ...(others as CommitFileChange[]).flatMap((c) => changeHunks(c.before ?? '', c.after ?? '').map((hunk) => ({ label: c.path, hunk }))),
  ];
  const input: ConsistencyInput = { revertedContent: result.after, reverted: result.reverted, kept, beforeTexts: [change.before, ...(others as CommitFileChange[]).map((c) => c.before ?? '')] };
  const coupled = couplingRefusal(input);
  if (coupled) return { note: `${short}: ${coupled}` };
  const names = namesToLookUp(input);
  const uses = await findNameUses(repo, [...names.removed, ...names.restored], { exclude: suspect.file, maxFiles: options.maxFilesRead });
  const inconsistent = lookupRefusal(input, names, uses.usedIn, uses.complete);
  if (inconsistent) return { note: `${short}: ${inconsistent}` };
  return {
    revert: {
      sha: suspect.sha, subject: suspect.subject, author: suspect.author, date: suspect.date, file: suspect.file, after: result.after, ageDays: suspect.ageDays,
      ...(otherFiles.length ? { otherFiles } : {}),
      lines: result.reverted.map(spanOf),
      ...(result.kept.length ? { keptHunks: result.kept.map(spanOf) } : {}),
    },
  };
}
