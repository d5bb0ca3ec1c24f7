import type { RecentChange } from '../domain/analysis.js';
import type { ErrorEvent } from '../domain/event.js';
import { parseStackTrace } from '../domain/stack-trace.js';
import type { CodeRepository } from '../ports/code.js';

export interface RecentChangesInput {
  event: ErrorEvent;
  /** Repo-relative files from code search, after the stack's own suspects. */
  candidates: string[];
  sinceDays: number;
  limit?: number;
}

const MAX_PATHS = 20;
const DEFAULT_LIMIT = 10;
// A frame's file name that matches this many repo files says nothing about which one is at fault.
const MAX_AMBIGUOUS = 3;

function segments(path: string): string[] {
  return path
    .replace(/^file:\/\//, '')
    .replace(/\\/g, '/')
    .replace(/^[A-Za-z]:/, '')
    .split('/')
    .filter((s) => s !== '' && s !== '.');
}

function sharedSuffix(a: string[], b: string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n += 1;
  return n;
}

/** Repo files whose path ends like the frame's (deployed `/srv/app/src/x.ts` → `src/x.ts`); best match wins. */
export function mapFrameToRepo(frameFile: string, byName: Map<string, string[]>): string[] {
  const frame = segments(frameFile);
  const name = frame[frame.length - 1];
  const sameName = name === undefined ? [] : (byName.get(name) ?? []);
  let best = 0;
  let matches: string[] = [];
  for (const file of sameName) {
    const shared = sharedSuffix(frame, segments(file));
    if (shared > best) {
      best = shared;
      matches = [file];
    } else if (shared === best) {
      matches.push(file);
    }
  }
  return matches.length <= MAX_AMBIGUOUS ? matches : [];
}

/**
 * The recent-changes step: files suspected from the stack frames (mapped onto the repository by
 * path suffix), then the code-search candidates, and the recent commits that touched them.
 * Commit text is untrusted (authors write anything); the analysts fence it like log lines.
 */
export async function findRecentChanges(repo: CodeRepository, input: RecentChangesInput): Promise<RecentChange[]> {
  const files = await repo.listFiles();
  const known = new Set(files);
  const byName = new Map<string, string[]>();
  for (const file of files) {
    const name = segments(file).pop();
    if (name !== undefined) byName.set(name, [...(byName.get(name) ?? []), file]);
  }
  const frames = parseStackTrace(input.event.raw || input.event.message).frames.filter((f) => f.inApp);
  const suspects = frames.flatMap((f) => mapFrameToRepo(f.file, byName));
  const candidates = input.candidates.map((c) => c.replace(/^\.\//, '')).filter((c) => known.has(c));
  const paths = [...new Set([...suspects, ...candidates])].slice(0, MAX_PATHS);
  if (paths.length === 0) return [];
  return repo.recentChanges(paths, input.sinceDays, input.limit ?? DEFAULT_LIMIT);
}
