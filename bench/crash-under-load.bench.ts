/**
 * The crash and recovery tests under CPU load: every file that kills a worker, a lock holder or a
 * Redis node and checks that nothing was lost or duplicated, run again and again while busy
 * processes (two per core by default) compete for the CPU. A test that passes only on a quiet
 * machine waits on wall time where it should wait on an event, or recovery has a race: either way
 * it shows here as a failed run.
 *
 * MEDIC_BENCH_CRASH_RUNS (default 20) runs per file; MEDIC_BENCH_CRASH_BUSY (default 2 × cores)
 * busy processes; MEDIC_BENCH_CRASH_FILES (comma-separated) narrows the files;
 * MEDIC_BENCH_CRASH_PARALLEL (default 1) runs that many files at once, as `npm test` runs two
 * (more load, not less). Each run is a fresh `vitest run <file>` process, as `npm test` runs it,
 * with its JSON report read back; dist/ is built once, first, for every run (a run rebuilding it
 * would delete the bundle under the other run's worker processes).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDist } from '../scripts/build.mjs';
import { ROOT } from '../test/support/medic-world.js';
import { median, type BenchReport } from './report.js';

/** Every test file that kills a process or a node mid-work and checks what survived. */
export const CRASH_FILES = [
  'test/integration/approve-crash.test.ts',
  'test/integration/crash-safety-analysis.test.ts',
  'test/integration/crash-safety-fix.test.ts',
  'test/integration/family-merge-crash.test.ts',
  'test/integration/same-failure-crash.test.ts',
  'test/integration/dead-lock-holder.test.ts',
  'test/integration/sentinel-failover.test.ts',
  'test/storm/same-failure.test.ts',
];

const RUNS = Number(process.env.MEDIC_BENCH_CRASH_RUNS ?? 20);
const BUSY = Number(process.env.MEDIC_BENCH_CRASH_BUSY ?? cpus().length * 2);
const PARALLEL = Number(process.env.MEDIC_BENCH_CRASH_PARALLEL ?? 1);
const FILES = process.env.MEDIC_BENCH_CRASH_FILES ? process.env.MEDIC_BENCH_CRASH_FILES.split(',').map((f) => f.trim()).filter(Boolean) : CRASH_FILES;

interface RunResult { ok: boolean; seconds: number; failed: string[]; reasons: string[] }
interface VitestJson { testResults?: { assertionResults?: { fullName?: string; status?: string; failureMessages?: string[] }[]; status?: string; message?: string }[] }

/** The first line of a failure, without the terminal's colours: what a failed run is told by. */
function firstLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return (text.replace(/\u001b\[[0-9;]*m/g, '').split('\n', 1)[0] ?? '').slice(0, 300);
}

/** A process that spins on the CPU until killed: the load the crash tests must hold under. */
function busyProcess(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

async function runFile(file: string, report: string): Promise<RunResult> {
  const started = Date.now();
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', file, '--reporter=json', `--outputFile=${report}`], { cwd: ROOT, stdio: 'ignore', env: { ...process.env, MEDIC_TEST_DIST_BUILT: '1' } });
    child.on('exit', (exitCode) => resolve(exitCode ?? 1));
  });
  const seconds = (Date.now() - started) / 1_000;
  const json = JSON.parse(await readFile(report, 'utf8').catch(() => '{}')) as VitestJson;
  const results = json.testResults ?? [];
  const failed = results.flatMap((r) => [
    ...(r.assertionResults ?? []).filter((a) => a.status === 'failed').map((a) => a.fullName ?? '?'),
    ...(r.status === 'failed' && !(r.assertionResults ?? []).some((a) => a.status === 'failed') ? [`(file) ${(r.message ?? 'failed').split('\n', 1)[0]}`] : []),
  ]);
  const reasons = results.flatMap((r) => (r.assertionResults ?? []).flatMap((a) => (a.status === 'failed' ? (a.failureMessages ?? []).slice(0, 1).map(firstLine) : [])));
  // No report at all is a failure too (the run died before vitest could write one).
  return { ok: code === 0 && results.length > 0, seconds, failed: code === 0 || failed.length > 0 ? failed : [`exit ${code}`], reasons };
}

export default async function bench(): Promise<BenchReport> {
  if (!Number.isInteger(RUNS) || RUNS < 1) throw new RangeError(`MEDIC_BENCH_CRASH_RUNS must be a whole number ≥ 1, not ${process.env.MEDIC_BENCH_CRASH_RUNS}`);
  if (!Number.isInteger(PARALLEL) || PARALLEL < 1) throw new RangeError(`MEDIC_BENCH_CRASH_PARALLEL must be a whole number ≥ 1, not ${process.env.MEDIC_BENCH_CRASH_PARALLEL}`);
  const unknown = FILES.filter((f) => !CRASH_FILES.includes(f));
  if (unknown.length > 0) throw new Error(`not a crash test file: ${unknown.join(', ')} (known: ${CRASH_FILES.join(', ')})`);
  await buildDist();
  const dir = await mkdtemp(join(tmpdir(), 'medic-bench-crash-'));
  const loadBefore = loadavg()[0] ?? 0;
  const busy = Array.from({ length: BUSY }, busyProcess);
  const results = new Map<string, RunResult[]>();
  const loads: number[] = [];
  try {
    // Round-robin over the files, so a slow drift of the machine falls on every file alike.
    const queue = Array.from({ length: RUNS }, (_, run) => FILES.map((file, f) => ({ run, file, report: join(dir, `run-${run}-${f}.json`) }))).flat();
    const lane = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const result = await runFile(next.file, next.report);
        results.set(next.file, [...(results.get(next.file) ?? []), result]);
        loads.push(loadavg()[0] ?? 0);
        process.stdout.write(`${result.ok ? '✓' : '✗'} ${next.file} run ${next.run + 1}/${RUNS} ${result.seconds.toFixed(1)} s${result.failed.length ? ` — ${result.failed.join('; ')}` : ''}\n`);
        for (const reason of result.reasons) process.stdout.write(`    ${reason}\n`);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, lane));
  } finally {
    for (const child of busy) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
  const rows = FILES.map((file) => {
    const runs = results.get(file) ?? [];
    return { file, runs: runs.length, passed: runs.filter((r) => r.ok).length, medianSeconds: median(runs.map((r) => r.seconds)), failures: runs.flatMap((r) => r.failed), reasons: runs.flatMap((r) => r.reasons) };
  });
  return {
    headline: {
      files: rows.length,
      runs_per_file: RUNS,
      runs: rows.reduce((n, r) => n + r.runs, 0),
      failed_runs: rows.reduce((n, r) => n + r.runs - r.passed, 0),
      flaky: rows.filter((r) => r.passed < r.runs).length,
      busy_processes: BUSY,
      files_at_once: PARALLEL,
      cpus: cpus().length,
      load_avg_1m_median: Math.round(median(loads) * 100) / 100,
      load_avg_1m_before: Math.round(loadBefore * 100) / 100,
    },
    table: { columns: ['file', 'passed', 'runs', 'median s'], rows: rows.map((r) => [r.file, r.passed, r.runs, Math.round(r.medianSeconds * 10) / 10]) },
    detail: { rows },
  };
}
