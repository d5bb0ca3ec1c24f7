import type { ParsedTrace } from './stack-trace.js';

const TOP_FRAMES = 3;

/**
 * The top in-app frames of a trace as `file#function`, innermost first: paths cut to the part
 * from `src/`, `lib/` or `app/` on (so two deployments of the same code under different roots
 * agree) and never line numbers (so a redeploy that shifts lines is the same failure).
 */
export function topInAppFrames(trace: ParsedTrace, limit = TOP_FRAMES): string[] {
  return trace.frames
    .filter((f) => f.inApp)
    .slice(0, limit)
    .map((f) => `${f.file.replace(/^.*?\/(src|lib|app)\//, '$1/')}#${f.fn ?? ''}`);
}
