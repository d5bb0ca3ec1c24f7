/**
 * Suspect commits: for the top in-project frames of the error, the commit that last changed the
 * frame's line — or, for the innermost frame, its function when that changed later — what
 * Sentry calls a suspect commit.
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

export interface SuspectCommitsInput {
  event: ErrorEvent;
  /** How many in-project frames to blame (default 3). */
  frames?: number;
  rules?: CandidateRules;
}

const DAY_MS = 86_400_000;

function later(a: BlameHit | undefined, b: BlameHit | undefined): BlameHit | undefined {
  if (!a || !b) return a ?? b;
  return Date.parse(b.date) > Date.parse(a.date) ? b : a;
}

export async function findSuspectCommits(repo: CodeRepository, input: SuspectCommitsInput): Promise<SuspectCommit[]> {
  return findSuspectCommitsIn(repo, { text: input.event.raw || input.event.message, record: true, time: input.event.time, frames: input.frames, rules: input.rules });
}

/** The same, for an error text and the time it happened (`medic locate` has no event). */
export async function findSuspectCommitsIn(
  repo: Pick<CodeRepository, 'listFiles' | 'blame' | 'blameFunction'>,
  input: { text: string; time: string; frames?: number; rules?: CandidateRules; /** The text is a log record: its first line never supplies a frame. */ record?: boolean },
): Promise<SuspectCommit[]> {
  const trace = parseStackTrace(input.text, { recordHeader: input.record });
  if (trace.frames.length === 0) return [];
  const files = await repo.listFiles();
  const { frameFiles } = scoreFrames({ frames: trace.frames, index: indexFilesByStem(files), filter: createCandidateFilter(input.rules), exceptionType: trace.rootCause?.exceptionType });
  const eventAt = Date.parse(input.time);
  const suspects: SuspectCommit[] = [];
  let blamedFunction = false;
  for (const { frame, files: mapped } of frameFiles.slice(0, input.frames ?? 3)) {
    // An ambiguous frame says nothing about which file's history to read.
    const file = mapped.length === 1 ? mapped[0] : undefined;
    if (!file || frame.line === undefined) continue;
    const byLine = await repo.blame(file, frame.line).catch(() => undefined);
    // The failing function's history is worth its cost for the innermost frame, where a change
    // elsewhere in the function most often explains the crash; outer frames get their line.
    const byFunction = frame.fn && suspects.length === 0 && !blamedFunction ? await repo.blameFunction(file, frame.fn).catch(() => undefined) : undefined;
    blamedFunction = true;
    const hit = later(byLine, byFunction);
    if (!hit || suspects.some((s) => s.sha === hit.sha && s.file === file)) continue;
    const ageDays = Number.isFinite(eventAt) ? Math.round(((eventAt - Date.parse(hit.date)) / DAY_MS) * 10) / 10 : 0;
    suspects.push({
      sha: hit.sha, author: hit.author, date: hit.date, subject: hit.subject.slice(0, 300), file, line: frame.line,
      ...(hit === byFunction && byFunction !== byLine && frame.fn ? { function: frame.fn.slice(0, 200) } : {}),
      ...(hit.path && hit.path !== file ? { pathAtCommit: hit.path } : {}),
      ageDays,
    });
  }
  return suspects;
}

/** A suspect that predates the first event by at most `maxAgeDays`: the one a revert may undo. */
export function isRecentSuspect(suspect: SuspectCommit, maxAgeDays: number): boolean {
  return suspect.ageDays >= 0 && suspect.ageDays <= maxAgeDays;
}
