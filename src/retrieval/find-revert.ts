/**
 * A revert proposal that needs no model: the most suspect recent commit's change to its file,
 * undone on the file as it is now — when it undoes cleanly and the revert policy allows it (never
 * a commit touching access control, a protected path, or one its message calls a fix). Reads go
 * through the CodeRepository port (the gateway in the pipeline).
 */
import type { SuspectCommit } from '../domain/analysis.js';
import type { RevertCandidate } from '../domain/fix.js';
import type { CodeRepository } from '../ports/code.js';
import { diffLines } from 'diff';
import { protectedPathReason } from '../code-search/protected-paths.js';
import { revertChange } from '../code-search/revert-change.js';
import { otherFilesOf, revertRefusal } from '../domain/revert-policy.js';
import { isRecentSuspect } from './find-suspect-commits.js';

export type RevertOutcome = { revert: RevertCandidate } | { note: string };

export async function findRevert(repo: CodeRepository, suspects: readonly SuspectCommit[], options: { maxAgeDays: number }): Promise<RevertOutcome> {
  const recent = suspects.filter((s) => isRecentSuspect(s, options.maxAgeDays));
  if (recent.length === 0) {
    const newest = suspects[0];
    return { note: newest ? `No revert proposed: suspect commit ${newest.sha.slice(0, 8)} is ${newest.ageDays} day(s) older than the first error (MEDIC_REVERT_MAX_AGE_DAYS is ${options.maxAgeDays}).` : 'No revert proposed: no suspect commit.' };
  }
  const notes: string[] = [];
  for (const suspect of recent) {
    const change = await repo.commitFileChange(suspect.sha, suspect.pathAtCommit ?? suspect.file).catch(() => undefined);
    const current = await repo.readFile(suspect.file).catch(() => undefined);
    const file = suspect.pathAtCommit ?? suspect.file;
    const refusal = change && revertRefusal({ sha: suspect.sha, subject: suspect.subject, message: change.message, files: change.files ?? [file], addedLines: addedLines(change.before, change.after) }, (f) => protectedPathReason(f));
    if (refusal) {
      notes.push(refusal);
      continue;
    }
    const after = change && current !== undefined ? revertChange({ before: change.before, after: change.after, current }) : undefined;
    if (after === undefined) {
      notes.push(`${suspect.sha.slice(0, 8)}'s change to ${suspect.file} does not revert cleanly onto the current file`);
      continue;
    }
    const otherFiles = otherFilesOf({ files: change?.files ?? [] }, file);
    return { revert: { sha: suspect.sha, subject: suspect.subject, author: suspect.author, date: suspect.date, file: suspect.file, after, ageDays: suspect.ageDays, ...(otherFiles.length ? { otherFiles } : {}) } };
  }
  return { note: `No revert proposed: ${notes.join('; ')}.` };
}

/** The lines `after` has that `before` had not: what a revert of the change takes out. */
function addedLines(before: string | undefined, after: string | undefined): string[] {
  if (after === undefined) return [];
  return diffLines(before ?? '', after).flatMap((part) => (part.added ? part.value.split('\n').filter((l) => l.trim() !== '') : []));
}
