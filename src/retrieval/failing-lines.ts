/**
 * The failing lines of an error, by repository file: the lines its in-project stack frames name,
 * mapped onto the files the way code search and blame map them (one file per frame, or none when a
 * frame is ambiguous). What a revert must cover to answer the error.
 */
import { parseStackTrace } from '../domain/stack-trace.js';
import type { CodeRepository } from '../ports/code.js';
import { createCandidateFilter, type CandidateRules } from '../code-search/candidate-filter.js';
import { scoreFrames } from '../code-search/frame-scores.js';
import { indexFilesByStem } from '../code-search/map-frames.js';

export async function findFailingLines(
  repo: Pick<CodeRepository, 'listFiles'>,
  input: { text: string; /** The text is a log record: its first line never supplies a frame. */ record?: boolean; rules?: CandidateRules },
): Promise<Map<string, number[]>> {
  const trace = parseStackTrace(input.text, { recordHeader: input.record });
  const byFile = new Map<string, number[]>();
  if (trace.frames.length === 0) return byFile;
  const { frameFiles } = scoreFrames({ frames: trace.frames, index: indexFilesByStem(await repo.listFiles()), filter: createCandidateFilter(input.rules), exceptionType: trace.rootCause?.exceptionType });
  for (const { frame, files } of frameFiles) {
    const file = files.length === 1 ? files[0] : undefined;
    if (!file || frame.line === undefined) continue;
    const lines = byFile.get(file) ?? [];
    if (!lines.includes(frame.line)) lines.push(frame.line);
    byFile.set(file, lines);
  }
  return byFile;
}
