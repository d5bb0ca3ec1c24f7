import type { RecentChange } from '../../domain/analysis.js';
import type { LoggedCommit } from '../../ports/code.js';

/** A `:(literal)` pathspec: the file itself, or everything under it when it names a directory. */
function matches(file: string, path: string): boolean {
  return file === path || file.startsWith(path.endsWith('/') ? path : `${path}/`);
}

/** Whole seconds, as git reads an ISO date given to --since and --until. */
const toSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * What `git log --since=<start> --until=<end> --max-count=<limit> --name-only -- <paths>` answers,
 * read from the branch's log: the commits committed in [start, end] (whole seconds, both ends
 * included) that changed a file under `paths` (every commit when none is given), newest first,
 * each with only those of its files. Pure.
 */
export function changesFromLog(log: readonly LoggedCommit[], paths: readonly string[], startMs: number, endMs: number, limit: number): RecentChange[] {
  const from = toSecond(startMs);
  const to = toSecond(endMs);
  const changes: RecentChange[] = [];
  for (const commit of log) {
    if (changes.length >= limit) break;
    const at = Date.parse(commit.committedAt);
    if (!(at >= from && at <= to)) continue;
    const files = paths.length === 0 ? commit.files : commit.files.filter((file) => paths.some((path) => matches(file, path)));
    // Without paths every commit is listed, a merge (which lists no files) too.
    if (files.length === 0 && paths.length > 0) continue;
    changes.push({ sha: commit.sha, author: commit.author, date: commit.date, subject: commit.subject, files });
  }
  return changes;
}
