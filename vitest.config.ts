import { defineConfig } from 'vitest/config';
import HeavyFirstSequencer from './test/setup/heavy-first-sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: integration tests spawn worker processes and share one Redis.
    fileParallelism: true,
    maxWorkers: 2,
    // Concurrent tests (the crash drills) each run worker processes of their own: three at a time keeps
    // the restart waits overlapping without starving the other file on the second core.
    maxConcurrency: 3,
    sequence: { sequencer: HeavyFirstSequencer },
    setupFiles: ['test/setup/close-network.ts'],
    globalSetup: ['test/setup/build-dist.mjs'],
  },
});
