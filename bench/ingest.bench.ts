/**
 * Ingest alone, the first half of the storm: 100,000 storm events written as JSON-lines logs,
 * one poll of the embedded file source into real Redis (dedupe, opening rules, caps, miner), no
 * workers. Split into the source's read + parse and Medic's ingest (mask, fingerprint, miner,
 * the Lua scripts, the analysis enqueues). Headline (median of 5): ingest_only_events_per_s,
 * poll_parse_ms, ingest_ms, ingest_cpu_ms (this process's CPU during the ingest half).
 */
import { cpus, loadavg } from 'node:os';
import { createWorld } from '../test/support/medic-world.js';
import { stormLines } from '../test/support/storm-events.js';
import { ingestEvents } from '../src/use-cases/ingest-events.js';
import { createTemplateMiner } from '../src/domain/templates/template-miner.js';
import type { BenchReport } from './report.js';

const EVENTS = Number(process.env.MEDIC_BENCH_EVENTS ?? 100_000);
const RUNS = Number(process.env.MEDIC_BENCH_RUNS ?? 5);

interface Run { parseMs: number; ingestMs: number; ingestCpuMs: number; created: number; absorbed: number }

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function runOnce(): Promise<Run> {
  const world = await createWorld({ llm: 'scripted' });
  try {
    for (const [i, chunk] of stormLines({ total: EVENTS }).entries()) await world.writeLogs(`storm-${i}.jsonl`, chunk);
    const medic = await world.startMedic();
    const t0 = performance.now();
    const { events } = await medic.poll.source.poll(undefined);
    const t1 = performance.now();
    const cpu = process.cpuUsage();
    const counts = await ingestEvents(events, { ...medic.poll, miner: createTemplateMiner({}) });
    const t2 = performance.now();
    const used = process.cpuUsage(cpu);
    if (counts.created + counts.absorbed + counts.overflow + counts.held !== EVENTS) throw new Error(`ingest lost events: ${JSON.stringify(counts)}`);
    return { parseMs: t1 - t0, ingestMs: t2 - t1, ingestCpuMs: (used.user + used.system) / 1000, created: counts.created, absorbed: counts.absorbed };
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
      ingest_only_events_per_s: Math.round(median(runs.map((r) => EVENTS / ((r.parseMs + r.ingestMs) / 1000)))),
      poll_parse_ms: Math.round(median(runs.map((r) => r.parseMs))),
      ingest_ms: Math.round(median(runs.map((r) => r.ingestMs))),
      // Medic's own CPU for the ingest half, steadier than wall time on a shared machine.
      ingest_cpu_ms: Math.round(median(runs.map((r) => r.ingestCpuMs))),
    },
    table: {
      columns: ['run', 'events', 'created', 'absorbed', 'read+parse ms', 'ingest ms', 'ingest cpu ms', 'events/s'],
      rows: [
        ...runs.map((r, i) => [String(i + 1), EVENTS, r.created, r.absorbed, Math.round(r.parseMs), Math.round(r.ingestMs), Math.round(r.ingestCpuMs), Math.round(EVENTS / ((r.parseMs + r.ingestMs) / 1000))]),
        ['load average 1m before / after', '', '', '', '', '', '', `${loadBefore.toFixed(2)} / ${loadAfter.toFixed(2)}`],
      ],
    },
    detail: { runs: RUNS, events: EVENTS, node: process.version, cpus: cpus().length, load_avg_1m_before: loadBefore, load_avg_1m_after: loadAfter },
  };
}
