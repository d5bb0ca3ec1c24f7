/**
 * One poll of 10,000 matching events through the loopback Splunk (export stream, index-time
 * search, normalization) into incidents on real Redis (fingerprint, ingest in batches).
 * Headline: events_per_s (target ≥ 5,000) and peak_rss_mb.
 */
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { Redis } from 'ioredis';
import { deleteByPrefix } from '../src/adapters/redis/connect.js';
import { createIncidentStore } from '../src/adapters/redis/incident-store.js';
import { createSplunkLogSource } from '../src/adapters/splunk/splunk-log-source.js';
import { startLoopbackSplunk } from '../test/loopback/splunk-server.js';
import { buildErrorRow, toIngestInput } from '../test/splunk/support/fixtures.js';
import type { BenchReport } from './report.js';

const EVENTS = 10_000;
const BATCH = 500;
const IN_FLIGHT = 4;
const SERVICES = ['checkout', 'payments', 'ledger', 'catalog', 'auth'];
const MESSAGES = ['Payment declined by the gateway', 'Ledger write timed out', 'Inventory lock not acquired', 'Token refresh failed', 'Order total mismatch'];

export default async function bench(): Promise<BenchReport> {
  const nowS = Math.floor(Date.now() / 1000);
  const server = await startLoopbackSplunk({ token: 'bench-token', nowS: () => nowS });
  for (let n = 0; n < EVENTS; n++) {
    server.rows.push(buildErrorRow({ n, indexTime: nowS - 600 + Math.floor(n / 20), message: MESSAGES[n % MESSAGES.length], service: SERVICES[n % SERVICES.length], txn: `txn-${n}` }));
  }
  const source = createSplunkLogSource({
    client: { url: server.url, auth: { kind: 'token', token: 'bench-token' } },
    search: 'search index=main (level=ERROR OR status=ERROR)',
    windowSearch: 'search index=main',
    correlationFields: ['txn_id', 'orderNumber', 'requestId'],
    maxEventsPerPoll: EVENTS,
  });
  const redis = new Redis(process.env.MEDIC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  const prefix = `medic-bench-${randomUUID().slice(0, 8)}:`;
  const store = createIncidentStore(redis, prefix);

  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 10);
  try {
    const started = performance.now();
    const { events } = await source.poll(undefined);
    const polled = performance.now();
    const statuses: Record<string, number> = {};
    // Batches go out back to back on one connection (Redis keeps their order), so fingerprinting
    // the next batch overlaps the round trip of the previous ones.
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < events.length; i += BATCH) {
      const inputs = events.slice(i, i + BATCH).map(toIngestInput);
      inFlight.push(store.ingest(inputs, Date.now()).then((results) => {
        for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      }));
      if (inFlight.length >= IN_FLIGHT) await inFlight.shift();
    }
    await Promise.all(inFlight);
    const done = performance.now();
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const seconds = (done - started) / 1000;
    const incidents = (await store.list()).length;
    if (events.length !== EVENTS) throw new Error(`expected ${EVENTS} events, polled ${events.length}`);
    const eventsPerS = Math.round(EVENTS / seconds);
    return {
      headline: { events_per_s: eventsPerS, peak_rss_mb: Math.round(peakRss / 1024 / 1024) },
      table: {
        columns: ['phase', 'ms', 'events/s'],
        rows: [
          ['poll (export stream + normalize)', Math.round(polled - started), Math.round(EVENTS / ((polled - started) / 1000))],
          ['fingerprint + ingest', Math.round(done - polled), Math.round(EVENTS / ((done - polled) / 1000))],
          ['total', Math.round(done - started), eventsPerS],
        ],
      },
      detail: { events: EVENTS, batch: BATCH, in_flight: IN_FLIGHT, incidents, statuses, target_events_per_s: 5_000, node: process.version, cpus: cpus().length, load_avg_1m: loadavg()[0] },
    };
  } finally {
    clearInterval(sampler);
    await deleteByPrefix(redis, prefix);
    redis.disconnect();
    source.close();
    await server.close();
  }
}
