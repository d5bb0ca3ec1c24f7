/**
 * Ingest alone, the first half of the storm: 100,000 storm events written as JSON-lines logs,
 * one poll of the embedded file source into real Redis (read, parse, mask, fingerprint, miner,
 * dedupe, opening rules, caps, the Lua scripts, the analysis enqueues), no workers. The file is
 * read a slice at a time and each slice ingested before the next is read, so read and ingest are
 * one interleaved pipeline. Headline (median of 5): ingest_only_events_per_s, poll_ms, and
 * ingest_cpu_ms (this process's CPU during the poll, Redis's own excluded).
 */
import { cpus, loadavg } from 'node:os';
import { createWorld } from '../test/support/medic-world.js';
import { stormLines } from '../test/support/storm-events.js';
import { pollOnce } from '../jobs/poll.js';
import { BENCH_RUNS, median, type BenchReport } from './report.js';

const EVENTS = Number(process.env.MEDIC_BENCH_EVENTS ?? 100_000);
const RUNS = BENCH_RUNS;

interface Run { pollMs: number; ingestCpuMs: number; created: number; absorbed: number }

async function runOnce(): Promise<Run> {
  const world = await createWorld({ llm: 'scripted' });
  try {
    for (const [i, chunk] of stormLines({ total: EVENTS }).entries()) await world.writeLogs(`storm-${i}.jsonl`, chunk);
    const medic = await world.startMedic();
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const counts = await pollOnce(medic.poll);
    const t1 = performance.now();
    const used = process.cpuUsage(cpu);
    if (!counts || counts.created + counts.absorbed + counts.overflow + counts.held !== EVENTS) throw new Error(`ingest lost events: ${JSON.stringify(counts)}`);
    return { pollMs: t1 - t0, ingestCpuMs: (used.user + used.system) / 1000, created: counts.created, absorbed: counts.absorbed };
  } finally {
    await world.close();
  }
}

export default async function bench(): Promise<BenchReport> {
  const loadBefore = loadavg()[0] ?? 0;
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await runOnce());
  const loadAfter = loadavg()[0] ?? 0;
  return {
    headline: {
      ingest_only_events_per_s: Math.round(median(runs.map((r) => EVENTS / (r.pollMs / 1000)))),
      poll_ms: Math.round(median(runs.map((r) => r.pollMs))),
      // Medic's own CPU for the poll, steadier than wall time on a shared machine.
      ingest_cpu_ms: Math.round(median(runs.map((r) => r.ingestCpuMs))),
    },
    table: {
      columns: ['run', 'events', 'created', 'absorbed', 'poll ms', 'cpu ms', 'events/s'],
      rows: [
        ...runs.map((r, i) => [String(i + 1), EVENTS, r.created, r.absorbed, Math.round(r.pollMs), Math.round(r.ingestCpuMs), Math.round(EVENTS / (r.pollMs / 1000))]),
        ['load average 1m before / after', '', '', '', '', '', `${loadBefore.toFixed(2)} / ${loadAfter.toFixed(2)}`],
      ],
    },
    detail: { runs: RUNS, events: EVENTS, node: process.version, cpus: cpus().length, load_avg_1m_before: loadBefore, load_avg_1m_after: loadAfter },
  };
}
