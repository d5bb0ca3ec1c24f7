/**
 * The stack-trace half of code search: each in-app frame votes for the repository file it maps
 * to, the innermost frame loudest. Frames of guard and error helpers (`assertX`, `new XError`,
 * `errors.ts`) are demoted: they are where the error is raised, rarely where the bug is — the
 * caller handed them the bad value.
 */
import type { StackFrame } from '../domain/stack-trace.js';
import { mapFramePath } from './map-frames.js';

export const FRAME_BASE = 60;
const DECAY = 0.6;
const DEMOTED = 0.4;
/** A library frame that maps into the repository is vendored code: a weak hint at most. */
const LIBRARY_FRAME = 4;

const GUARD_FN = /^(?:new\s+\w*(?:Error|Exception)\b|(?:assert|invariant|ensure|require|guard|fail|throw|raise|panic|must)(?:[A-Z_]|$))/;
const GUARD_FILE = /(^|\/)(errors?|exceptions?|asserts?|assertions?|invariant|guards?|panics?)\.\w+$/i;

export function isGuardFrame(frame: StackFrame): boolean {
  const fn = frame.fn ?? '';
  // Money.assertCents → assertCents; a constructor keeps its "new" so the class name is checked.
  const bare = fn.startsWith('new ') ? fn : fn.replace(/^.*[.#:]/, '');
  return GUARD_FN.test(bare) || GUARD_FILE.test(frame.file.replace(/\\/g, '/'));
}

export interface FrameScores {
  scores: Map<string, number>;
  /** Files named by a frame: exempt from the test/vendor/build exclusions. */
  named: Set<string>;
}

export function scoreFrames(frames: readonly StackFrame[], index: Map<string, string[]>): FrameScores {
  const best = new Map<string, number>();
  const total = new Map<string, number>();
  let rank = 0;
  for (const frame of frames) {
    const matches = mapFramePath(frame.file, index, { loose: frame.language === 'java' });
    let weight: number;
    if (frame.inApp) {
      weight = FRAME_BASE * DECAY ** rank * (isGuardFrame(frame) ? DEMOTED : 1);
      rank++;
    } else weight = LIBRARY_FRAME;
    if (matches.length === 0) continue;
    // An ambiguous frame (two files share the matching suffix) splits its vote.
    const share = weight / matches.length;
    for (const { file } of matches) {
      best.set(file, Math.max(best.get(file) ?? 0, share));
      total.set(file, (total.get(file) ?? 0) + share);
    }
  }
  const scores = new Map<string, number>();
  // Several frames in one file add a little; recursion must not outvote the innermost frame.
  for (const [file, top] of best) scores.set(file, top + 0.1 * ((total.get(file) ?? top) - top));
  return { scores, named: new Set(best.keys()) };
}
