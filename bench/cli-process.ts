/** Timing whole command-line processes, for the benches of the compiled CLI. */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const MEDIC_CLI = join(ROOT, 'dist/cli/medic.js');

export interface TimedRun {
  ms: number;
  code: number;
  stdout: string;
}

/**
 * Runs one process to its exit and returns its wall time. Large outputs go to /dev/null (opened
 * as a file, so no pipe reader's pace enters the figure); small ones are captured.
 */
export async function timeProcess(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; stdinFile?: string; discardStdout?: boolean } = {},
): Promise<TimedRun> {
  const stdin = options.stdinFile ? openSync(options.stdinFile, 'r') : 'ignore';
  const stdout = options.discardStdout ? openSync('/dev/null', 'w') : 'pipe';
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, env: options.env ?? process.env, stdio: [stdin, stdout, 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c) => resolve(c ?? 1));
  });
  const ms = performance.now() - started;
  if (typeof stdin === 'number') closeSync(stdin);
  if (typeof stdout === 'number') closeSync(stdout);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}: ${err.slice(0, 2_000)}`);
  return { ms, code, stdout: out };
}

/** One untimed warm-up (the OS file cache), then the median wall time of `runs` runs. */
export async function medianOf(runs: number, once: () => Promise<TimedRun>): Promise<{ median: number; all: number[] }> {
  await once();
  const all: number[] = [];
  for (let i = 0; i < runs; i += 1) all.push((await once()).ms);
  const sorted = [...all].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] ?? 0, all: all.map((ms) => Math.round(ms)) };
}

export function loadAverage(): string {
  return loadavg().map((l) => l.toFixed(2)).join(' ');
}
