/**
 * Template mining on Loghub-2k: grouping accuracy per system with one configuration, and
 * single-thread throughput over all 20,000 messages. Then the `templates` command itself, as a
 * process, over the ten systems ×16 (320,000 lines), beside a plain reference Drain in Python:
 * once with the copies alike, and once with every copy's numbers drawn again (`vs_drain_varied`),
 * so that nothing is won by remembering lines the input repeats.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTemplateMiner } from '../src/domain/templates/template-miner.js';
import { loadLoghub } from './loghub.js';
import { seeded } from '../test/support/storm-events.js';
import type { BenchReport } from './report.js';
import { buildDist } from '../scripts/build.mjs';
import { loadAverage, MEDIC_CLI, medianOf, ROOT, timeProcess } from './cli-process.js';

const MIN_TIMED_MS = 2_000;
const COPIES = 16;
const PROCESS_RUNS = 5;

interface Labelled {
  content: string;
  event: string;
}

/** A message is right when its predicted group holds exactly the messages of its true group. */
export function groupingAccuracy(truth: string[], predicted: string[]): number {
  const members = (labels: string[]): Map<string, number[]> => {
    const groups = new Map<string, number[]>();
    labels.forEach((label, i) => (groups.get(label) ?? groups.set(label, []).get(label)!).push(i));
    return groups;
  };
  const truthGroups = members(truth);
  let correct = 0;
  for (const indices of members(predicted).values()) {
    const label = truth[indices[0]!]!;
    if (truthGroups.get(label)!.length === indices.length && indices.every((i) => truth[i] === label)) correct += indices.length;
  }
  return correct / truth.length;
}

function evaluate(messages: Labelled[]): { final: number; online: number; groups: number } {
  const miner = createTemplateMiner();
  const returned = messages.map((m) => miner.add(m.content).groupId);
  // Merged groups live on as aliases: score the grouping the miner ends with, and the ids as returned.
  const final = returned.map((id) => miner.lookup(id)?.groupId ?? id);
  const truth = messages.map((m) => m.event);
  return { final: groupingAccuracy(truth, final), online: groupingAccuracy(truth, returned), groups: miner.groupCount() };
}

interface Throughput {
  /** Messages per second of process CPU time (all threads, GC included): one core's rate, even on a busy machine. */
  perCpuSecond: number;
  perWallSecond: number;
}

function measureThroughput(all: string[][]): Throughput {
  const run = (): void => {
    for (const messages of all) {
      const miner = createTemplateMiner();
      for (const m of messages) miner.add(m);
    }
  };
  run(); // warm-up: JIT and regex compilation
  const total = all.reduce((n, m) => n + m.length, 0);
  let messages = 0;
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  let wallMs = 0;
  while (wallMs < MIN_TIMED_MS) {
    run();
    messages += total;
    wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  }
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return { perCpuSecond: Math.round((messages / cpuMs) * 1000), perWallSecond: Math.round((messages / wallMs) * 1000) };
}

function hasPython(): boolean {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Every run of digits drawn again, as many digits long (no leading zero where it had none): the next copy of a log. */
export function redrawNumbers(line: string, random: () => number): string {
  return line.replace(/\d+/g, (digits) => {
    let out = '';
    for (let i = 0; i < digits.length; i += 1) out += String(i === 0 && digits[0] !== '0' ? 1 + Math.floor(random() * 9) : Math.floor(random() * 10));
    return out;
  });
}

/** Wall seconds (median of 5) of `medic templates` and of the reference Drain over the same file. */
async function measureCommand(all: string[][], varied: boolean): Promise<{ medic: number; drain?: number; medicRuns: number[]; drainRuns?: number[]; lines: number; load: string }> {
  await buildDist();
  const dir = await mkdtemp(join(tmpdir(), 'medic-bench-templates-'));
  try {
    // One message per line, as the command reads them: Loghub contents hold no newlines, but be sure.
    const once = all.flat().map((m) => m.replace(/[\r\n]+/g, ' '));
    const file = join(dir, 'lines.txt');
    const random = seeded(20_140_304);
    const copy = (c: number) => (varied && c > 0 ? once.map((line) => redrawNumbers(line, random)) : once).join('\n');
    await writeFile(file, `${Array.from({ length: COPIES }, (_, c) => copy(c)).join('\n')}\n`);
    const medic = await medianOf(PROCESS_RUNS, () => timeProcess(process.execPath, [MEDIC_CLI, 'templates', file], { discardStdout: true }));
    const drain = hasPython() ? await medianOf(PROCESS_RUNS, () => timeProcess('python3', [join(ROOT, 'bench/reference/drain.py'), file], { discardStdout: true })) : undefined;
    const seconds = (ms: number) => Math.round(ms) / 1000;
    return {
      medic: seconds(medic.median), medicRuns: medic.all.map(seconds),
      ...(drain ? { drain: seconds(drain.median), drainRuns: drain.all.map(seconds) } : {}),
      lines: once.length * COPIES, load: loadAverage(),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export default async function (): Promise<BenchReport> {
  const systems = await loadLoghub();
  const data: Labelled[][] = systems.map(({ rows }) => rows.map((r) => ({ content: r.content, event: r.eventId })));
  const rows: (string | number)[][] = [];
  const scores: number[] = [];
  data.forEach((messages, i) => {
    const result = evaluate(messages);
    scores.push(result.final);
    rows.push([systems[i]!.system, round(result.final), round(result.online), result.groups, new Set(messages.map((m) => m.event)).size]);
  });
  const throughput = measureThroughput(data.map((messages) => messages.map((m) => m.content)));
  const contents = data.map((messages) => messages.map((m) => m.content));
  const command = await measureCommand(contents, false);
  const varied = await measureCommand(contents, true);
  rows.push(
    [`medic templates, ${command.lines} lines (s, median of ${PROCESS_RUNS})`, command.medic, command.medicRuns.join(' '), '', ''],
    [`reference Drain, Python (s, median of ${PROCESS_RUNS})`, command.drain ?? 'python3 missing', command.drainRuns?.join(' ') ?? '', '', ''],
    ['load average after', command.load, '', '', ''],
    [`medic templates, ${varied.lines} lines, numbers redrawn per copy (s)`, varied.medic, varied.medicRuns.join(' '), '', ''],
    [`reference Drain, numbers redrawn per copy (s)`, varied.drain ?? 'python3 missing', varied.drainRuns?.join(' ') ?? '', '', ''],
    ['load average after', varied.load, '', '', ''],
  );
  return {
    headline: {
      ga_mean: round(scores.reduce((a, b) => a + b, 0) / scores.length),
      ga_min: round(Math.min(...scores)),
      messages_per_s: throughput.perCpuSecond,
      cli_320k_seconds: command.medic,
      ...(command.drain ? { reference_drain_320k_seconds: command.drain, cli_320k_speedup_vs_reference_drain: round(command.drain / command.medic) } : {}),
      cli_320k_varied_seconds: varied.medic,
      ...(varied.drain ? { reference_drain_320k_varied_seconds: varied.drain, vs_drain_varied: round(varied.drain / varied.medic) } : {}),
    },
    table: { columns: ['system', 'ga', 'ga_as_returned', 'groups', 'true_groups'], rows },
    detail: {
      cli_320k_runs_s: command.medicRuns,
      reference_drain_runs_s: command.drainRuns ?? null,
      load_average_after_cli: command.load,
      cli_320k_varied_runs_s: varied.medicRuns,
      reference_drain_varied_runs_s: varied.drainRuns ?? null,
      load_average_after_varied: varied.load,
      messages_per_wall_s: throughput.perWallSecond,
      // The wall-clock rate depends on what else the host runs; this says how busy it was.
      load_average_1m: loadavg()[0],
      systems: Object.fromEntries(rows.map((r) => [r[0], { ga: r[1], ga_as_returned: r[2], groups: r[3], true_groups: r[4] }])),
    },
  };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
