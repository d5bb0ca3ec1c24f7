/**
 * Code search: which repository files an error most likely comes from. Read-only by design — it
 * lists and reads files through the CodeRepository port and never imports, runs or evaluates
 * anything from the searched repository.
 *
 * Ranking = stack frames mapped to files (dominant when present) + lexical evidence: the error's
 * identifiers, the RCA's impacted component and the evidence, weighted by rarity. Every candidate
 * — found by a frame or by a word — passes the same filter (candidate-filter.ts).
 */
import type { CodeCandidate } from '../ports/analyst.js';
import type { CodeRepository } from '../ports/code.js';
import { parseStackTrace, type ParsedTrace, type StackFrame } from '../domain/stack-trace.js';
import { createCandidateFilter, type CandidateRules } from './candidate-filter.js';
import { scoreFrames } from './frame-scores.js';
import { indexFilesByStem } from './map-frames.js';
import { countOccurrences, weighTerms } from './terms.js';

export interface SearchCodeOptions extends CandidateRules {
  /** The error message or stack trace (or the RCA's root cause). */
  text: string;
  impactedComponent?: string;
  evidence?: string | string[];
  /** How many candidates to return (default 5). */
  limit?: number;
  /** Per-file content cap in bytes (default 64 KiB); longer files are cut at a line end. */
  maxBytes?: number;
  /** Most files read for lexical ranking (default 5,000): a bound on time for huge repositories. */
  maxFilesRead?: number;
}

export interface RankedFile {
  file: string;
  score: number;
  content: string;
}

/** Lexical evidence never outweighs the innermost frame on its own (FRAME_BASE is 60). */
const LEXICAL_MAX = 20;
/**
 * With in-project frames, words only break near-ties: a message names the code that raised it,
 * which the frames already say, and must not undo their evidence against the thrower.
 */
const LEXICAL_MAX_WITH_FRAMES = 8;
const PATH_HIT = 3;

/**
 * The words worth searching for: with frames, the exception messages and the in-project frames'
 * functions (the runtime's and the test runner's frames name nothing of the project); without
 * frames, the whole text.
 */
function traceText(text: string, trace: ParsedTrace, projectFrames: readonly StackFrame[]): { message: string; functions: string } {
  if (trace.frames.length === 0) return { message: text, functions: '' };
  const message = trace.exceptions.map((e) => `${e.exceptionType} ${e.message ?? ''}`).join('\n');
  return { message, functions: projectFrames.map((f) => f.fn ?? '').join(' ') };
}

export async function rankFiles(repo: CodeRepository, options: SearchCodeOptions): Promise<RankedFile[]> {
  const files = await repo.listFiles();
  const filter = createCandidateFilter(options);
  const trace = parseStackTrace(options.text);
  const frames = scoreFrames({ frames: trace.frames, index: indexFilesByStem(files), filter, exceptionType: trace.rootCause?.exceptionType });
  const pool = files.filter((f) => filter.isCandidate(f));

  const evidence = Array.isArray(options.evidence) ? options.evidence.join('\n') : options.evidence;
  const { message, functions } = traceText(options.text, trace, frames.projectFrames);
  const terms = weighTerms([
    { text: message, weight: 1 },
    { text: functions, weight: 1.5 },
    { text: options.impactedComponent, weight: 2 },
    { text: evidence, weight: 0.5 },
  ]);

  const contents = new Map<string, string>();
  const reads = [...frames.scores.keys(), ...pool.slice(0, options.maxFilesRead ?? 5_000)];
  for (const file of new Set(reads)) {
    const content = await repo.readFile(file).catch(() => undefined);
    if (content !== undefined) contents.set(file, content);
  }

  const lexical = scoreLexical(contents, terms);
  const maxLexical = Math.max(0, ...lexical.values());
  const cap = frames.projectFrames.length > 0 ? LEXICAL_MAX_WITH_FRAMES : LEXICAL_MAX;
  const scaled = (file: string) => (maxLexical > 0 ? ((lexical.get(file) ?? 0) / maxLexical) * cap : 0);

  const ranked: RankedFile[] = [];
  for (const [file, content] of contents) {
    const score = (frames.scores.get(file) ?? 0) + scaled(file);
    if (score > 0) ranked.push({ file, content, score: Math.round(score * 1000) / 1000 });
  }
  return ranked.sort((a, b) => b.score - a.score || a.file.localeCompare(b.file));
}

/** tf (log-damped, capped) × idf per term, plus a bonus when the term names the file's path. */
function scoreLexical(contents: Map<string, string>, terms: { term: string; weight: number }[]): Map<string, number> {
  const lowered = new Map([...contents].map(([file, content]) => [file, { path: file.toLowerCase(), text: content.toLowerCase() }]));
  const n = lowered.size;
  const scores = new Map<string, number>();
  for (const { term, weight } of terms) {
    const hits: [string, number, boolean][] = [];
    for (const [file, { path, text }] of lowered) {
      const count = countOccurrences(text, term);
      const inPath = path.includes(term);
      if (count > 0 || inPath) hits.push([file, count, inPath]);
    }
    if (hits.length === 0) continue;
    const idf = Math.log(1 + n / hits.length);
    for (const [file, count, inPath] of hits) {
      scores.set(file, (scores.get(file) ?? 0) + weight * idf * (Math.log2(1 + count) + (inPath ? PATH_HIT : 0)));
    }
  }
  return scores;
}

function capContent(content: string, maxBytes: number): string {
  if (Buffer.byteLength(content, 'utf8') <= maxBytes) return content;
  const cut = Buffer.from(content, 'utf8').subarray(0, maxBytes).toString('utf8');
  const end = cut.lastIndexOf('\n');
  return end > 0 ? cut.slice(0, end + 1) : cut;
}

/** The top candidates with their (size-capped) content, best first. */
export async function searchCode(repo: CodeRepository, options: SearchCodeOptions): Promise<CodeCandidate[]> {
  const ranked = await rankFiles(repo, options);
  const maxBytes = options.maxBytes ?? 64 * 1024;
  return ranked.slice(0, options.limit ?? 5).map(({ file, score, content }) => ({ file, score, content: capContent(content, maxBytes) }));
}
