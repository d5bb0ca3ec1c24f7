/**
 * One poll of 10,000 matching events through the loopback Splunk (export stream, index-time
 * search, normalization) into incidents on real Redis (fingerprint, ingest in batches), with the
 * events ingested while the export still streams (pollStream, back-pressure to Splunk).
 *
 * The loopback Splunk runs in its own process (this file, forked with `--splunk-server`), since
 * in production splunkd's work of searching and serialising is not Medic's. One untimed warm-up
 * poll, then the median of 5. Headline: events_per_s (target ≥ 25,000) and peak_rss_mb; also
 * poll_only_events_per_s, the same poll with a consumer that only counts (Medic's Splunk side alone).
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { deleteByPrefix } from '../src/adapters/redis/connect.js';
import { createIncidentStore } from '../src/adapters/redis/incident-store.js';
import { createSplunkLogSource } from '../src/adapters/splunk/splunk-log-source.js';
import type { ErrorEvent } from '../src/domain/event.js';
import { startLoopbackSplunk } from '../test/loopback/splunk-server.js';
import { buildErrorRow, toIngestInput } from '../test/splunk/support/fixtures.js';
import type { BenchReport } from './report.js';

const EVENTS = 10_000;
const BATCH = 500;
const IN_FLIGHT = 4;
const RUNS = 5;
const SERVICES = ['checkout', 'payments', 'ledger', 'catalog', 'auth'];
const MESSAGES = ['Payment declined by the gateway', 'Ledger write timed out', 'Inventory lock not acquired', 'Token refresh failed', 'Order total mismatch'];

/** The child: the loopback Splunk holding the events, reporting its URL. */
async function runServer(): Promise<void> {
  const nowS = Math.floor(Date.now() / 1000);
  const server = await startLoopbackSplunk({ token: 'bench-token', nowS: () => nowS });
  for (let n = 0; n < EVENTS; n++) {
    server.rows.push(buildErrorRow({ n, indexTime: nowS - 600 + Math.floor(n / 20), message: MESSAGES[n % MESSAGES.length], service: SERVICES[n % SERVICES.length], txn: `txn-${n}` }));
  }
  process.send?.({ url: server.url });
  process.on('disconnect', () => void server.close().then(() => process.exit(0)));
}

if (process.argv.includes('--splunk-server')) await runServer();

interface Run {
  ms: number;
  firstIngestMs: number;
  streamEndMs: number;
  statuses: Record<string, number>;
  incidents: number;
}

/** One poll into a fresh prefix: events go to Redis in batches while the export streams. */
async function pollOnce(url: string, redis: Redis): Promise<Run> {
  const source = createSplunkLogSource({
    client: { url, auth: { kind: 'token', token: 'bench-token' } },
    search: 'search index=main (level=ERROR OR status=ERROR)',
    windowSearch: 'search index=main',
    correlationFields: ['txn_id', 'orderNumber', 'requestId'],
    maxEventsPerPoll: EVENTS,
  });
  const prefix = `medic-bench-${randomUUID().slice(0, 8)}:`;
  const store = createIncidentStore(redis, prefix);
  const statuses: Record<string, number> = {};
  // Batches go out back to back on one connection (Redis keeps their order); at most IN_FLIGHT
  // are outstanding, and the stream waits when they are.
  const inFlight: Promise<void>[] = [];
  let pending: ErrorEvent[] = [];
  let firstIngest = 0;
  const send = (events: ErrorEvent[]) => {
    firstIngest ||= performance.now();
    inFlight.push(store.ingest(events.map(toIngestInput), Date.now()).then((results) => {
      for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    }));
  };
  try {
    const started = performance.now();
    const polled = await source.pollStream!(undefined, async (events) => {
      for (const event of events) pending.push(event);
      if (pending.length < BATCH) return;
      send(pending);
      pending = [];
      if (inFlight.length >= IN_FLIGHT) await inFlight.shift();
    });
    const streamEnd = performance.now();
    if (pending.length > 0) send(pending);
    await Promise.all(inFlight);
    const done = performance.now();
    if (polled.events !== EVENTS) throw new Error(`expected ${EVENTS} events, polled ${polled.events}`);
    return { ms: done - started, firstIngestMs: firstIngest - started, streamEndMs: streamEnd - started, statuses, incidents: (await store.list()).length };
  } finally {
    source.close();
    await deleteByPrefix(redis, prefix);
  }
}

/** The Splunk side alone: stream, parse and normalise, with a consumer that only counts. */
async function streamOnly(url: string): Promise<number> {
  const source = createSplunkLogSource({
    client: { url, auth: { kind: 'token', token: 'bench-token' } },
    search: 'search index=main (level=ERROR OR status=ERROR)',
    windowSearch: 'search index=main',
    correlationFields: ['txn_id', 'orderNumber', 'requestId'],
    maxEventsPerPoll: EVENTS,
  });
  try {
    const started = performance.now();
    let count = 0;
    await source.pollStream!(undefined, async (events) => {
      count += events.length;
    });
    if (count !== EVENTS) throw new Error(`expected ${EVENTS} events, streamed ${count}`);
    return performance.now() - started;
  } finally {
    source.close();
  }
}

export default async function bench(): Promise<BenchReport> {
  const child = fork(fileURLToPath(import.meta.url), ['--splunk-server'], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { url } = await new Promise<{ url: string }>((resolve) => child.once('message', (m) => resolve(m as { url: string })));
  const redis = new Redis(process.env.MEDIC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 10);
  const loadBefore = loadavg()[0] ?? 0;
  try {
    await pollOnce(url, redis); // warm-up: JIT, connections
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i += 1) runs.push(await pollOnce(url, redis));
    const sorted = [...runs].sort((a, b) => a.ms - b.ms);
    const median = sorted[Math.floor(RUNS / 2)]!;
    const eventsPerS = Math.round(EVENTS / (median.ms / 1000));
    await streamOnly(url);
    const streamMs: number[] = [];
    for (let i = 0; i < RUNS; i += 1) streamMs.push(await streamOnly(url));
    const streamMedian = [...streamMs].sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
    const loadAfter = loadavg()[0] ?? 0;
    return {
      headline: { events_per_s: eventsPerS, poll_only_events_per_s: Math.round(EVENTS / (streamMedian / 1000)), peak_rss_mb: Math.round(peakRss / 1024 / 1024) },
      table: {
        columns: ['run', 'total_ms', 'events/s', 'first_ingest_ms', 'stream_end_ms'],
        rows: [
          ...runs.map((r, i) => [String(i + 1), Math.round(r.ms), Math.round(EVENTS / (r.ms / 1000)), Math.round(r.firstIngestMs), Math.round(r.streamEndMs)]),
          [`median of ${RUNS}`, Math.round(median.ms), eventsPerS, Math.round(median.firstIngestMs), Math.round(median.streamEndMs)],
          [`poll only, no ingest (median of ${RUNS})`, Math.round(streamMedian), Math.round(EVENTS / (streamMedian / 1000)), '', ''],
          ['load average 1m before / after', loadBefore.toFixed(2), loadAfter.toFixed(2), '', ''],
        ],
      },
      detail: {
        events: EVENTS, batch: BATCH, in_flight: IN_FLIGHT, runs_ms: runs.map((r) => Math.round(r.ms)), poll_only_runs_ms: streamMs.map((ms) => Math.round(ms)), incidents: median.incidents, statuses: median.statuses,
        target_events_per_s: 25_000, node: process.version, cpus: cpus().length, load_avg_1m_before: loadBefore, load_avg_1m_after: loadAfter,
      },
    };
  } finally {
    clearInterval(sampler);
    redis.disconnect();
    child.disconnect();
  }
}
