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
import { ErrorCode, isMedicError } from '../domain/errors.js';
import { parseStackTrace, type ParsedTrace, type StackFrame } from '../domain/stack-trace.js';
import { createCandidateFilter, type CandidateFilter, type CandidateRules } from './candidate-filter.js';
import { scoreFrames } from './frame-scores.js';
import { indexFilesByStem } from './map-frames.js';
import { countOccurrences, weighTerms, type WeightedTerm } from './terms.js';

export interface SearchCodeOptions extends CandidateRules {
  /** The error message or stack trace (or the RCA's root cause). */
  text: string;
  /** The text leads with a log record, whose first line (its message) never supplies a frame. */
  record?: boolean;
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
 * The lexical half scans every indexed file once per term, so its cost is terms × repository
 * size: a log message of thousands of distinct words must not hold a worker for seconds. The
 * most informative terms are kept (highest weight, then longest: a long identifier is rarer than
 * a short word), and the scan stops at its time budget, having scored the best terms first.
 */
export const MAX_TERMS = 48;
export const LEXICAL_BUDGET_MS = 120;

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

/** A repository file as lexical ranking reads it: its content, and its path and text lower-cased. */
interface IndexedFile {
  content: string;
  path: string;
  text: string;
}

/**
 * What code search reads of a repository before any error is seen: the file list, the files by
 * stem, and the candidate files read and lower-cased. The same for every search at one revision,
 * so it is built once per revision (createCodeSearch) instead of once per search.
 */
export interface SearchIndex {
  byStem: Map<string, string[]>;
  /** The candidate files read for lexical ranking (at most `maxFilesRead`), read or not. */
  attempted: ReadonlySet<string>;
  read: ReadonlyMap<string, IndexedFile>;
  /** False when a read failed for a reason that may pass: such an index serves its search only. */
  complete: boolean;
  /** Characters held: the contents and their lower-cased copies. */
  chars: number;
}

const DEFAULT_MAX_FILES_READ = 5_000;
/** Files read at once while an index is built. */
const READ_CONCURRENCY = 8;

const indexed = (file: string, content: string): IndexedFile => ({ content, path: file.toLowerCase(), text: content.toLowerCase() });

/** A refusal (binary, over the size limit, a symlink out) is the file's own and holds for the revision. */
const isRefusal = (error: unknown) => isMedicError(error) && error.code === ErrorCode.FixRefused;

export async function buildSearchIndex(repo: CodeRepository, filter: CandidateFilter, maxFilesRead = DEFAULT_MAX_FILES_READ): Promise<SearchIndex> {
  const files = await repo.listFiles();
  const attempted = files.filter((f) => filter.isCandidate(f)).slice(0, maxFilesRead);
  const read = new Map<string, IndexedFile>();
  let complete = true;
  const contents: (string | undefined)[] = [];
  for (let i = 0; i < attempted.length; i += READ_CONCURRENCY) {
    const batch = attempted.slice(i, i + READ_CONCURRENCY).map((file) =>
      repo.readFile(file).catch((error: unknown) => {
        if (!isRefusal(error)) complete = false;
        return undefined;
      }),
    );
    contents.push(...(await Promise.all(batch)));
  }
  let chars = 0;
  attempted.forEach((file, i) => {
    const content = contents[i];
    if (content === undefined) return;
    read.set(file, indexed(file, content));
    chars += 2 * content.length;
  });
  return { byStem: indexFilesByStem(files), attempted: new Set(attempted), read, complete, chars };
}

/** Ranks the repository's files against one error, over an index of the repository. */
export async function rankIndexed(index: SearchIndex, repo: CodeRepository, filter: CandidateFilter, options: SearchCodeOptions): Promise<RankedFile[]> {
  const trace = parseStackTrace(options.text, { recordHeader: options.record === true });
  const frames = scoreFrames({ frames: trace.frames, index: index.byStem, filter, exceptionType: trace.rootCause?.exceptionType });

  const evidence = Array.isArray(options.evidence) ? options.evidence.join('\n') : options.evidence;
  const { message, functions } = traceText(options.text, trace, frames.projectFrames);
  const terms = mostInformative(weighTerms([
    { text: message, weight: 1 },
    { text: functions, weight: 1.5 },
    { text: options.impactedComponent, weight: 2 },
    { text: evidence, weight: 0.5 },
  ]));

  // Frame files past the read bound are read for this search only.
  const extra = new Map<string, IndexedFile>();
  for (const file of frames.scores.keys()) {
    if (index.attempted.has(file)) continue;
    const content = await repo.readFile(file).catch(() => undefined);
    if (content !== undefined) extra.set(file, indexed(file, content));
  }
  const docs = extra.size === 0 ? [...index.read] : [...index.read, ...extra];

  const lexical = scoreLexical(docs, terms);
  const maxLexical = Math.max(0, ...lexical.values());
  const cap = frames.projectFrames.length > 0 ? LEXICAL_MAX_WITH_FRAMES : LEXICAL_MAX;
  const scaled = (file: string) => (maxLexical > 0 ? ((lexical.get(file) ?? 0) / maxLexical) * cap : 0);

  const ranked: RankedFile[] = [];
  for (const [file, { content }] of docs) {
    const score = (frames.scores.get(file) ?? 0) + scaled(file);
    if (score > 0) ranked.push({ file, content, score: Math.round(score * 1000) / 1000 });
  }
  return ranked.sort((a, b) => b.score - a.score || a.file.localeCompare(b.file));
}

export async function rankFiles(repo: CodeRepository, options: SearchCodeOptions): Promise<RankedFile[]> {
  const filter = createCandidateFilter(options);
  return rankIndexed(await buildSearchIndex(repo, filter, options.maxFilesRead), repo, filter, options);
}

/** The MAX_TERMS terms most worth a scan, best first. */
export function mostInformative(terms: readonly WeightedTerm[], max = MAX_TERMS): WeightedTerm[] {
  return [...terms].sort((a, b) => b.weight - a.weight || b.term.length - a.term.length || (a.term < b.term ? -1 : 1)).slice(0, max);
}

/** tf (log-damped, capped) × idf per term, plus a bonus when the term names the file's path; best terms first, within the time budget. */
function scoreLexical(docs: readonly [string, IndexedFile][], terms: readonly WeightedTerm[], budgetMs = LEXICAL_BUDGET_MS): Map<string, number> {
  const n = docs.length;
  const scores = new Map<string, number>();
  const deadline = performance.now() + budgetMs;
  for (const { term, weight } of terms) {
    if (performance.now() > deadline) break;
    const hits: [string, number, boolean][] = [];
    for (const [file, { path, text }] of docs) {
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

function topCandidates(ranked: RankedFile[], options: Pick<SearchCodeOptions, 'limit' | 'maxBytes'>): CodeCandidate[] {
  const maxBytes = options.maxBytes ?? 64 * 1024;
  return ranked.slice(0, options.limit ?? 5).map(({ file, score, content }) => ({ file, score, content: capContent(content, maxBytes) }));
}

/** The top candidates with their (size-capped) content, best first. */
export async function searchCode(repo: CodeRepository, options: SearchCodeOptions): Promise<CodeCandidate[]> {
  return topCandidates(await rankFiles(repo, options), options);
}

/** Indexes kept at once: one per repository, directory and revision in use. */
const KEPT_INDEXES = 8;
/** Characters all kept indexes may hold; an index larger than this serves its own search only. */
const KEPT_CHARS = 64 * 1024 * 1024;

export type CodeSearchQuery = Pick<SearchCodeOptions, 'text' | 'record' | 'impactedComponent' | 'evidence' | 'limit'>;

/**
 * Code search over one repository with fixed rules, its index kept per repository revision: the
 * twenty incidents of a storm, each searched twice, list and read the clone once between them,
 * and a new commit gets a new index. A repository that cannot tell its revision is indexed per search.
 */
export function createCodeSearch(
  repo: CodeRepository,
  rules: Omit<SearchCodeOptions, keyof CodeSearchQuery> = {},
  bounds: { indexes?: number; chars?: number } = {},
): (query: CodeSearchQuery) => Promise<CodeCandidate[]> {
  const filter = createCandidateFilter(rules);
  const maxIndexes = bounds.indexes ?? KEPT_INDEXES;
  const maxChars = bounds.chars ?? KEPT_CHARS;
  const kept = new Map<string, Promise<SearchIndex>>();

  const sizes = new Map<string, number>();
  const drop = (revision: string, built: Promise<SearchIndex>) => {
    if (kept.get(revision) !== built) return;
    kept.delete(revision);
    sizes.delete(revision);
  };
  /** Oldest first, until the kept indexes fit both bounds. */
  const trim = () => {
    let total = [...sizes.values()].reduce((a, b) => a + b, 0);
    for (const [revision] of kept) {
      if (kept.size <= maxIndexes && total <= maxChars) return;
      total -= sizes.get(revision) ?? 0;
      kept.delete(revision);
      sizes.delete(revision);
    }
  };

  function keep(revision: string): Promise<SearchIndex> {
    const held = kept.get(revision);
    if (held) {
      kept.delete(revision);
      kept.set(revision, held);
      return held;
    }
    const built = buildSearchIndex(repo, filter, rules.maxFilesRead);
    kept.set(revision, built);
    trim();
    // An index read while the clone moved, or with a failed read, is not kept.
    built.then(async (index) => {
      if (!index.complete || (await repo.revision?.().catch(() => undefined)) !== revision) return drop(revision, built);
      if (kept.get(revision) !== built) return;
      sizes.set(revision, index.chars);
      trim();
    }, () => drop(revision, built));
    return built;
  }

  return async (query) => {
    const options = { ...rules, ...query };
    const revision = await repo.revision?.();
    const index = revision === undefined ? await buildSearchIndex(repo, filter, rules.maxFilesRead) : await keep(revision);
    return topCandidates(await rankIndexed(index, repo, filter, options), options);
  };
}
