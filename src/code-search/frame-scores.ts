/**
 * The stack-trace half of code search: each in-project frame votes for the repository file it
 * maps to, the innermost file loudest. A frame is in the project when it maps onto a candidate
 * file, whatever its package looks like (`com.google.gson` is Gson's own code in Gson's repo), so
 * frames thrown inside the runtime or a dependency leave the vote to their first in-project
 * caller. Test files never get a vote of their own; the test a trace passes through still names
 * its subject and its package, a weaker hint for traces that never reach production code.
 *
 * Evidence against the innermost file: guard and error helpers (`assertX`, `new XError`,
 * `errors.ts`) and code that rejects its argument (`IllegalArgumentException` and kin) are where
 * the error is raised, rarely where the bug is — the caller handed them the bad value.
 */
import type { StackFrame } from '../domain/stack-trace.js';
import type { CandidateFilter } from './candidate-filter.js';
import { mapFramePath, normalizeFramePath, preferNamed } from './map-frames.js';
import { testSubjectStem } from './test-files.js';

export const FRAME_BASE = 60;
const DECAY = 0.6;
const DEMOTED = 0.4;
/** A test's subject: below the innermost production frame, above lexical evidence alone. */
const TEST_SUBJECT = 24;
/** Files in the failing test's package: a tie-breaker for traces with no production frame. */
const TEST_PACKAGE = 3;

const GUARD_FN = /^(?:new\s+\w*(?:Error|Exception)\b|(?:assert|invariant|ensure|require|guard|fail|throw|raise|panic|must)(?:[A-Z_]|$))/;
const GUARD_FILE = /(^|\/)(errors?|exceptions?|asserts?|assertions?|invariant|guards?|panics?|validate|validation|preconditions?)\.\w+$/i;
/** Exception types that say the caller passed a bad argument. */
const ARGUMENT_ERROR = /(?:IllegalArgument|InvalidArgument|Argument(?:Null|OutOfRange)?)(?:Exception|Error)$/;

export function isGuardFrame(frame: StackFrame): boolean {
  const fn = frame.fn ?? '';
  // Money.assertCents → assertCents; a constructor keeps its "new" so the class name is checked.
  const bare = fn.startsWith('new ') ? fn : fn.replace(/^.*[.#:]/, '');
  return GUARD_FN.test(bare) || GUARD_FILE.test(frame.file.replace(/\\/g, '/'));
}

export interface FrameScores {
  scores: Map<string, number>;
  /** Candidate files an in-project frame maps to, innermost first. */
  inProject: string[];
  /** The frames that mapped onto a candidate, innermost first. */
  projectFrames: StackFrame[];
  /** Each of those frames with the candidate files it maps to. */
  frameFiles: { frame: StackFrame; files: string[] }[];
}

export interface ScoreFramesInput {
  frames: readonly StackFrame[];
  /** Repository files by lower-case stem (indexFilesByStem). */
  index: Map<string, string[]>;
  filter: CandidateFilter;
  /** Exception type of the innermost exception whose frames lead the list. */
  exceptionType?: string;
}

const LIBRARY_ROOT = /^(node_modules|site-packages|dist-packages)$/;

/**
 * For a frame whose path or package marks it as a dependency, the fewest segments a repository
 * file must share with it to count as the project's own: the whole package path for a JVM or .NET
 * class, the installed package's name for node_modules and site-packages (a monorepo's workspace
 * package, an app installed into its own virtualenv). Runtime and standard-library frames never map.
 * `installed`: the project may be the installed package itself (a CLI installed from npm, a gem, a
 * Composer or Cargo dependency, a wheel), wherever it was installed: any frame maps by its longest
 * path suffix, which must cover the repository file's whole path or a directory and a file of it.
 */
function librarySegments(frame: StackFrame, installed: boolean): number | undefined {
  if (frame.inApp || installed) return 1;
  const segments = normalizeFramePath(frame.file);
  if (frame.module && (frame.language === 'java' || frame.language === 'dotnet')) return segments.length;
  const root = segments.findLastIndex((s) => LIBRARY_ROOT.test(s));
  if (root < 0) return undefined;
  const name = segments[root + 1]?.startsWith('@') ? root + 2 : root + 1;
  if (name < segments.length - 1) return segments.length - name;
  // A single-file module installed at the root (`site-packages/six.py`): its file is its package.
  return name === segments.length - 1 && !segments[name]!.startsWith('@') ? 1 : undefined;
}

/**
 * The frame's path as its install root sees it: `…/site-packages/requests/models.py` is
 * `requests/models.py`, wherever the environment lives; a path with no such root is kept whole.
 */
function installRelativePath(file: string): string {
  const segments = normalizeFramePath(file);
  const root = segments.findLastIndex((s) => LIBRARY_ROOT.test(s));
  return root < 0 || root === segments.length - 1 ? file : segments.slice(root + 1).join('/');
}

function mapFrame(frame: StackFrame, index: Map<string, string[]>, installed: boolean): string[] {
  const minSegments = librarySegments(frame, installed);
  if (minSegments === undefined) return [];
  const loose = frame.inApp && frame.language === 'java';
  return preferNamed(frame, mapFramePath(installRelativePath(frame.file), index, { loose, minSegments })).map((m) => m.file);
}

/**
 * The repository files each frame of a trace maps to, by the one rule code search ranks with: the
 * project's frames (in-app or one of its own packages) and, for a trace with none, every frame read
 * as the project's own installed package. What else needs "the project's frames" takes them here.
 */
export function projectFrameFiles(frames: readonly StackFrame[], index: Map<string, string[]>): { frame: StackFrame; files: string[] }[] {
  for (const installed of [false, true]) {
    const mapped = frames.filter((frame) => !(installed && frame.inApp)).map((frame) => ({ frame, files: mapFrame(frame, index, installed) }));
    const found = mapped.filter((m) => m.files.length > 0);
    if (found.length > 0) return found;
  }
  return [];
}

function addScore(scores: Map<string, number>, file: string, score: number): void {
  scores.set(file, Math.max(scores.get(file) ?? 0, score));
}

export function scoreFrames(input: ScoreFramesInput): FrameScores {
  const { frames, index, filter } = input;
  const scores = new Map<string, number>();
  const inProject: string[] = [];
  const projectFrames: StackFrame[] = [];
  const frameFiles: { frame: StackFrame; files: string[] }[] = [];
  const testFiles: string[] = [];
  const dirs = directoryIndex(index);
  // Only a trace with no frame of the project at all is read as the project's own installed package.
  for (const installed of [false, true]) {
    if (installed && (projectFrames.length > 0 || testFiles.length > 0)) break;
    scoreFramePass(installed);
  }
  addTestHints(scores, testFiles, index, filter);
  return { scores, inProject, projectFrames, frameFiles };

  function scoreFramePass(installed: boolean): void {
    for (const frame of frames) {
      if (installed && frame.inApp) continue;
      const matches = mapFrame(frame, index, installed);
      const tests = matches.filter((f) => filter.isTest(f));
      if (tests.length > 0 || (matches.length === 0 && frame.inApp && testSubjectStem(frame.file) && inKnownDirectory(frame.file, dirs))) {
        for (const file of tests.length > 0 ? tests : [frame.file]) if (!testFiles.includes(file)) testFiles.push(file);
        continue;
      }
      const candidates = matches.filter((f) => filter.isCandidate(f));
      if (candidates.length === 0) continue;
      projectFrames.push(frame);
      frameFiles.push({ frame, files: candidates });
      // The innermost frame of all threw; a library that rejected its argument blames its caller instead.
      const thrower = frame === frames[0];
      const demoted = isGuardFrame(frame) || (thrower && input.exceptionType !== undefined && ARGUMENT_ERROR.test(input.exceptionType));
      // A file's rank is where it first appears; a later, plainer frame of the same file lifts it back.
      const fresh = candidates.filter((f) => !inProject.includes(f));
      const freshRank = inProject.length;
      inProject.push(...fresh);
      for (const file of candidates) {
        const rank = fresh.includes(file) ? freshRank : inProject.indexOf(file);
        // An ambiguous frame (two files share the matching suffix) splits its vote.
        addScore(scores, file, (FRAME_BASE * DECAY ** rank * (demoted ? DEMOTED : 1)) / candidates.length);
      }
    }
  }
}

function directoryIndex(index: Map<string, string[]>): Set<string> {
  const dirs = new Set<string>();
  for (const files of index.values()) for (const file of files) dirs.add(packageOf(file));
  return dirs;
}

/** A frame the repository does not hold counts as a test of the project only when its directory is one of the project's. */
function inKnownDirectory(frameFile: string, dirs: Set<string>): boolean {
  const parts = normalizeFramePath(frameFile).slice(0, -1);
  if (parts.length === 0) return false;
  const tail = `/${parts.slice(-2).join('/')}`;
  for (const dir of dirs) if (dir.endsWith(tail)) return true;
  return false;
}

/** The subjects of the tests in the trace, innermost first, and the outermost test's package. */
function addTestHints(scores: Map<string, number>, testFiles: readonly string[], index: Map<string, string[]>, filter: CandidateFilter): void {
  testFiles.forEach((test, i) => {
    const stem = testSubjectStem(test);
    const subjects = (stem ? (index.get(stem) ?? []) : []).filter((f) => filter.isCandidate(f));
    const dir = test.slice(0, test.lastIndexOf('/'));
    // Several files share the subject's name: the one nearest the test's package wins.
    const near = subjects.filter((f) => packageOf(f).endsWith(packageTail(dir)));
    for (const file of near.length > 0 ? near : subjects) addScore(scores, file, (TEST_SUBJECT * DECAY ** i) / Math.max(1, near.length || subjects.length));
  });
  const outermost = testFiles[testFiles.length - 1];
  if (!outermost) return;
  const tail = packageTail(outermost.slice(0, outermost.lastIndexOf('/')));
  if (!tail) return;
  for (const files of index.values()) for (const file of files) if (filter.isCandidate(file) && packageOf(file).endsWith(tail)) addScore(scores, file, TEST_PACKAGE);
}

function packageOf(file: string): string {
  return `/${file.slice(0, Math.max(0, file.lastIndexOf('/')))}`;
}

/** The package part of a test's directory: what follows the test root (`src/test/java/`, `tests/`, …). */
function packageTail(dir: string): string {
  const parts = normalizeFramePath(dir);
  const root = parts.findLastIndex((p) => /^(test|tests|__tests__|spec|specs|java|kotlin|scala)$/.test(p));
  const tail = parts.slice(root + 1);
  return tail.length > 0 ? `/${tail.join('/')}` : '';
}
