/**
 * The storm of issue 4, end to end on the embedded defaults: 100,000 error events of 20 families
 * (variable ids, numbers and Node stack traces) land in the log directory, one poll reads them,
 * and the real queues and workers make 20 incidents, 20 analyses (scripted model) and 20 cards.
 * Headline: storm_seconds (files written → 20th card posted) and storm_incidents.
 */
import { cpus, loadavg } from 'node:os';
import { createWorld } from '../test/support/medic-world.js';
import { stormLines } from '../test/support/storm-events.js';
import type { BenchReport } from './report.js';

const EVENTS = 100_000;
const FAMILIES = 20;

export default async function bench(): Promise<BenchReport> {
  const world = await createWorld({ llm: 'scripted' });
  try {
    const chunks = stormLines({ total: EVENTS });
    for (const [i, chunk] of chunks.entries()) await world.writeLogs(`storm-${i}.jsonl`, chunk);
    const medic = await world.startMedic();
    const started = performance.now();
    await medic.startWorkers();
    let ingestedAt = 0;
    const incidents = await world.waitFor(async () => {
      const all = await medic.store.list();
      if (!ingestedAt && all.length > 0) {
        const counts = await Promise.all(all.map(async (i) => (await medic.store.stats(i.id))?.count ?? 0));
        if (counts.reduce((a, b) => a + b, 0) === EVENTS) ingestedAt = performance.now();
      }
      return all.length >= FAMILIES && all.every((i) => i.steps.card) ? all : undefined;
    }, 'the storm to be analysed', 600_000);
    const done = performance.now();
    const rca = (await medic.audit.list({ count: 100_000 })).filter((a) => a.action === 'step.rca').length;
    const cards = (await world.redis.lrange(`${world.prefix}console:transcript`, 0, -1)).filter((row) => (JSON.parse(row) as { kind: string }).kind === 'post').length;
    const seconds = (done - started) / 1000;
    const ingestSeconds = ingestedAt ? (ingestedAt - started) / 1000 : seconds;
    return {
      headline: { storm_seconds: Number(seconds.toFixed(2)), storm_incidents: incidents.length },
      table: {
        columns: ['events', 'families', 'incidents', 'analyses', 'cards', 'ingest s', 'total s'],
        rows: [[EVENTS, FAMILIES, incidents.length, rca, cards, ingestSeconds, seconds]],
      },
      detail: {
        events: EVENTS, families: FAMILIES, incidents: incidents.length, analyses: rca, cards,
        ingest_seconds: Number(ingestSeconds.toFixed(2)), events_per_s_ingest: Math.round(EVENTS / ingestSeconds),
        states: Object.fromEntries([...new Set(incidents.map((i) => i.state))].map((s) => [s, incidents.filter((i) => i.state === s).length])),
        analyst: 'scripted', chat: 'console', node: process.version, cpus: cpus().length, load_avg_1m: Math.round(loadavg()[0] ?? 0),
      },
    };
  } finally {
    await world.close();
  }
}
