import type { RecentChange } from '../domain/analysis.js';
import type { ErrorEvent } from '../domain/event.js';
import { eventTrace } from '../domain/event-trace.js';
import type { CodeRepository } from '../ports/code.js';
import { projectFrameFiles } from '../code-search/frame-scores.js';
import { indexFilesByStem, mapFramePath } from '../code-search/map-frames.js';

export interface RecentChangesInput {
  event: ErrorEvent;
  /** Repo-relative files from code search, after the stack's own suspects. */
  candidates: string[];
  sinceDays: number;
  limit?: number;
}

const MAX_PATHS = 20;
const DEFAULT_LIMIT = 10;
// A frame that matches this many repo files equally well says nothing about which one is at fault.
const MAX_AMBIGUOUS = 3;

/** Repo files a frame points at (code search's suffix mapping), or none when too ambiguous. */
export function mapFrameToRepo(frameFile: string, index: Map<string, string[]>): string[] {
  const matches = mapFramePath(frameFile.replace(/^file:\/\//, ''), index).map((m) => m.file);
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
  const byName = indexFilesByStem(files);
  const suspects = projectFrameFiles(eventTrace(input.event).frames, byName).flatMap((m) => (m.files.length <= MAX_AMBIGUOUS ? m.files : []));
  const candidates = input.candidates.map((c) => c.replace(/^\.\//, '')).filter((c) => known.has(c));
  const paths = [...new Set([...suspects, ...candidates])].slice(0, MAX_PATHS);
  if (paths.length === 0) return [];
  // The window ends at the first error: a change made after it cannot have caused it.
  return repo.recentChanges(paths, input.sinceDays, input.limit ?? DEFAULT_LIMIT, Number.isFinite(Date.parse(input.event.time)) ? new Date(input.event.time).toISOString() : undefined);
}
