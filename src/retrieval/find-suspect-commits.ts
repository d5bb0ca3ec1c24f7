/**
 * Suspect commits: for the top in-project frames of the error, the commit that last changed the
 * failing line itself — what Sentry calls a suspect commit. The line is re-anchored on the source
 * text the trace prints when the numbers drifted, commits that only moved or re-indented it are
 * looked through (the blame reads skip them), and runtime-made frames give no line. The innermost
 * function's history is evidence after the lines, never ahead of them: a package move or a comment
 * edit in the function is newer than the bug more often than not. A commit dated after the first
 * event cannot have caused it and is no suspect.
 * Reads go through the CodeRepository port (the gateway in the pipeline); history that cannot be
 * read (a plain directory, a file never committed) yields no suspect rather than an error.
 */
import type { SuspectCommit } from '../domain/analysis.js';
import type { ErrorEvent } from '../domain/event.js';
import { parseStackTrace } from '../domain/stack-trace.js';
import type { BlameHit, CodeRepository } from '../ports/code.js';
import { createCandidateFilter, type CandidateRules } from '../code-search/candidate-filter.js';
import { scoreFrames } from '../code-search/frame-scores.js';
import { indexFilesByStem } from '../code-search/map-frames.js';
import { anchorLine, isSyntheticFrame, sourceTextOf, traceSourceLines } from './anchor-failing-line.js';

export interface SuspectCommitsInput {
  event: ErrorEvent;
  /** How many in-project frames to blame (default 3). */
  frames?: number;
  rules?: CandidateRules;
}

const DAY_MS = 86_400_000;

export async function findSuspectCommits(repo: CodeRepository, input: SuspectCommitsInput): Promise<SuspectCommit[]> {
  return findSuspectCommitsIn(repo, { text: input.event.raw || input.event.message, record: true, time: input.event.time, frames: input.frames, rules: input.rules });
}

type HistoryRepo = Pick<CodeRepository, 'listFiles' | 'blame' | 'blameFunction'> & Partial<Pick<CodeRepository, 'readFile'>>;

/** The same, for an error text and the time it happened (`medic locate` has no event). */
export async function findSuspectCommitsIn(
  repo: HistoryRepo,
  input: { text: string; time: string; frames?: number; rules?: CandidateRules; /** The text is a log record: its first line never supplies a frame. */ record?: boolean },
): Promise<SuspectCommit[]> {
  const trace = parseStackTrace(input.text, { recordHeader: input.record });
  if (trace.frames.length === 0) return [];
  const files = await repo.listFiles();
  const { frameFiles } = scoreFrames({ frames: trace.frames, index: indexFilesByStem(files), filter: createCandidateFilter(input.rules), exceptionType: trace.rootCause?.exceptionType });
  const sources = traceSourceLines(input.text);
  const eventAt = Date.parse(input.time);
  const suspects: SuspectCommit[] = [];
  const add = (hit: BlameHit | undefined, file: string, line: number, fn?: string) => {
    if (!hit || suspects.some((s) => s.sha === hit.sha && s.file === file)) return;
    const age = Number.isFinite(eventAt) ? eventAt - Date.parse(hit.date) : 0;
    if (age < 0) return;
    suspects.push({
      sha: hit.sha, author: hit.author, date: hit.date, subject: hit.subject.slice(0, 300), file, line,
      ...(fn ? { function: fn.slice(0, 200) } : {}),
      ...(hit.path && hit.path !== file ? { pathAtCommit: hit.path } : {}),
      ageDays: Math.round((age / DAY_MS) * 10) / 10,
    });
  };
  let innermost: { file: string; line: number; fn: string } | undefined;
  for (const { frame, files: mapped } of frameFiles.slice(0, input.frames ?? 3)) {
    // An ambiguous frame says nothing about which file's history to read.
    const file = mapped.length === 1 ? mapped[0] : undefined;
    if (!file || frame.line === undefined || isSyntheticFrame(frame)) continue;
    const content = repo.readFile ? await repo.readFile(file).catch(() => undefined) : undefined;
    const line = content === undefined ? frame.line : anchorLine(content, frame.line, sourceTextOf(sources, frame));
    if (line === undefined) continue;
    if (!innermost && frame.fn) innermost = { file, line, fn: frame.fn };
    add(await repo.blame(file, line).catch(() => undefined), file, line);
  }
  if (innermost) add(await repo.blameFunction(innermost.file, innermost.fn).catch(() => undefined), innermost.file, innermost.line, innermost.fn);
  return suspects;
}

/** A suspect that predates the first event by at most `maxAgeDays`: the one a revert may undo. */
export function isRecentSuspect(suspect: SuspectCommit, maxAgeDays: number): boolean {
  return suspect.ageDays >= 0 && suspect.ageDays <= maxAgeDays;
}
