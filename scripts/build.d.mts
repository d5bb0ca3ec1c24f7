/** Bundles src/ into `outdir` (default dist/), replacing what was there. */
export function buildDist(outdir?: string): Promise<void>;
