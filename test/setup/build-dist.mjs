// Vitest global setup: bundle src/ into dist/ once before any test file runs, so the tests that
// run the shipped entry points (`npm start`, the compiled CLI) run what the sources say today.
import { buildDist } from '../../scripts/build.mjs';

export default async function setup() {
  await buildDist();
}
