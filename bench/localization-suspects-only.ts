/**
 * The suspect-commit part of the localization bench on its own (`npx tsx
 * bench/localization-suspects-only.ts`): both halves of the real set against their SZZ truth, with
 * plain `git blame` of the trace's first in-project frame beside it. Prints figures and, with
 * MEDIC_BENCH_DETAIL=1, every case (MEDIC_BENCH_HALF=tuning or frozen: that half only); writes no
 * result file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRealSet } from './localization-real-cases.js';
import { runSuspectCases, type SuspectRun } from './localization-suspects.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'localization');
const mirrors = process.env.MEDIC_BENCH_MIRRORS ?? '/work/.mirror';

function figures(run: SuspectRun): Record<string, number> {
  const share = (pick: (r: SuspectRun['results'][number]) => boolean) => (run.results.length === 0 ? 0 : Math.round((run.results.filter(pick).length / run.results.length) * 1000) / 1000);
  return {
    top1: share((r) => r.rank === 1),
    top3: share((r) => r.rank >= 1 && r.rank <= 3),
    blame_top1: share((r) => r.blameHit),
    cases: run.results.length,
    no_mirror: run.noMirror,
    no_szz: run.noSzz,
  };
}

const work = await mkdtemp(join(tmpdir(), 'medic-bench-suspects-'));
try {
  const set = await loadRealSet(fixtures);
  for (const half of (['tuning', 'frozen'] as const).filter((h) => (process.env.MEDIC_BENCH_HALF ?? h) === h)) {
    const run = await runSuspectCases(set.cases.filter((c) => c.split === half), { mirrors, workDir: join(work, half) });
    process.stdout.write(`${half} ${Object.entries(figures(run)).map(([k, v]) => `${k}=${v}`).join('  ')}\n`);
    if (process.env.MEDIC_BENCH_DETAIL) for (const r of run.results) process.stdout.write(`  ${r.rank} ${r.blameHit ? 'B' : '-'} ${r.language} ${r.id} ${r.suspects.map((s) => s.slice(0, 8)).join(',')}\n`);
  }
  process.stdout.write(`load_average_1m=${loadavg()[0]!.toFixed(2)}\n`);
} finally {
  await rm(work, { recursive: true, force: true });
}
