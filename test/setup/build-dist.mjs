// Vitest global setup: bundle src/ into dist/ once before any test file runs, so the tests that
// run the shipped entry points (`npm start`, the compiled CLI) run what the sources say today.
// MEDIC_TEST_DIST_BUILT=1 skips it: set by a bench that built dist itself and runs several vitest
// processes at once, where one's rebuild would delete the bundle under another's workers.
import process from 'node:process';
import { buildDist } from '../../scripts/build.mjs';

export default async function setup() {
  if (process.env.MEDIC_TEST_DIST_BUILT === '1') return;
  await buildDist();
}
