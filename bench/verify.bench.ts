/**
 * Verification after the merge at scale, on real Redis, the real incident store (its ingest
 * script counting the per-minute rate), the real BullMQ verify-fix job and the real durable
 * deliveries: INCIDENTS incidents with a pushed fix each wait for their merge; all merge at once
 * (the merge is the deploy); each family stays quiet for the window. Figures:
 * - verification_lag_s_p50 / _p95 / _max: from the end of the quiet window after the deploy to
 *   the "Resolved — verified" message being durably requested (the quiet window itself excluded);
 * - verified: incidents verified (INCIDENTS is the only right answer); replies_per_incident: 1.
 * One run unless MEDIC_BENCH_RUNS; the machine's load is reported beside the figures.
 */
import { loadavg } from 'node:os';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createVerifyFixJob } from '../jobs/verify-fix.js';
import { createRedisCardDeliveryState } from '../src/adapters/redis/card-delivery-state.js';
import { deleteByPrefix } from '../src/adapters/redis/connect.js';
import { createIncidentStore } from '../src/adapters/redis/incident-store.js';
import { createCardDeliveries } from '../src/app/card-deliveries.js';
import { ErrorEvent } from '../src/domain/event.js';
import { startVerification } from '../src/domain/verification.js';
import { createLogger } from '../src/observability/logger.js';
import { createQueues } from '../src/queue/queues.js';
import { startWorker } from '../src/queue/start-worker.js';
import { ingestEvents } from '../src/use-cases/ingest-events.js';
import { BENCH_RUNS, median, type BenchReport } from './report.js';

const INCIDENTS = Number(process.env.MEDIC_BENCH_VERIFY_INCIDENTS ?? 1_000);
const WINDOW_S = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(values.length * p) - 1)] ?? 0;

/** A word per family, so the masked templates (and so the incidents) differ. */
function word(i: number): string {
  let s = '';
  for (let n = i + 26; n > 0; n = Math.floor(n / 26)) s = String.fromCharCode(97 + (n % 26)) + s;
  return s;
}

async function run(): Promise<{ lags: number[]; verified: number; replies: number; setupS: number }> {
  const redis = new Redis(process.env.MEDIC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  const prefix = `medic-bench-verify-${randomUUID().slice(0, 8)}:`;
  const store = createIncidentStore(redis, prefix);
  const queues = createQueues(redis, prefix);
  const logger = createLogger({ level: process.env.MEDIC_BENCH_DEBUG ? 'debug' : 'silent' });
  const started = Date.now();
  try {
    const before = Date.now() - 3_600_000;
    const events = Array.from({ length: INCIDENTS * 5 }, (_, i) => ErrorEvent.parse({
      id: `bench:${i}`, source: 'file', service: 'checkout', severity: 'error', time: new Date(before + i * 100).toISOString(),
      message: `Payment ${word(i % INCIDENTS)} declined for order ${i}`, raw: 'x', correlationIds: {}, fields: {},
    }));
    await ingestEvents(events, { store, clock: () => new Date(), enqueueAnalysis: async () => undefined });
    const ids = (await store.list({ limit: INCIDENTS * 2 })).map((i) => i.id);
    const at = new Date().toISOString();
    for (const id of ids) {
      await store.update(id, (current) => ({
        incident: { ...current, state: 'fixed', fix: { branch: `fix/${id}-1`, commit: 'c0ffee', pushStatus: 'pushed' }, verification: startVerification(at, { windowMinutes: WINDOW_S / 60 }) },
        audit: [],
      }));
    }
    const merge: { at?: string } = {};
    const requested = new Map<string, number>();
    let replies = 0;
    const state = createRedisCardDeliveryState(redis, prefix);
    const real = createCardDeliveries(queues, state, 3);
    const deliveries = {
      requestCard: real.requestCard,
      async requestReply(incidentId: string, key: string, message: Parameters<typeof real.requestReply>[2]) {
        await real.requestReply(incidentId, key, message);
        if (key.endsWith(':verified')) {
          replies++;
          if (!requested.has(incidentId)) requested.set(incidentId, Date.now());
        }
      },
    };
    const worker = startWorker(createVerifyFixJob({
      store, deliveries, settingsFor: () => ({ windowMinutes: WINDOW_S / 60 }),
      pullRequests: { mergeState: async () => (merge.at ? { merged: true, mergedAt: merge.at } : { merged: false }) },
      clock: () => new Date(), logger, intervalMs: 1_000, maxIntervalMs: 1_000, maxWaitMs: 86_400_000, regressionHoldMs: 86_400_000,
    }), { connection: redis, redisPrefix: prefix, lockDurationMs: 30_000, logger });
    for (const id of ids) await queues.enqueueVerify(id, 0, 0);
    const setupS = (Date.now() - started) / 1000;
    await sleep(2_000);
    merge.at = new Date().toISOString();
    const windowEnd = Date.parse(merge.at) + WINDOW_S * 1000;
    const deadline = windowEnd + 120_000;
    while (requested.size < ids.length && Date.now() < deadline) await sleep(100);
    await worker.close();
    const verified = (await store.list({ states: ['closed'], limit: INCIDENTS * 2 })).length;
    return { lags: [...requested.values()].map((t) => Math.max(0, (t - windowEnd) / 1000)), verified, replies, setupS };
  } finally {
    await queues.close();
    await deleteByPrefix(redis, prefix);
    redis.disconnect();
  }
}

export default async function verifyBench(): Promise<BenchReport> {
  const runs = [];
  for (let i = 0; i < Math.min(BENCH_RUNS, Number(process.env.MEDIC_BENCH_RUNS ?? 1)); i++) runs.push(await run());
  const p50 = median(runs.map((r) => pct(r.lags, 0.5)));
  const p95 = median(runs.map((r) => pct(r.lags, 0.95)));
  const max = median(runs.map((r) => Math.max(0, ...r.lags)));
  const verified = median(runs.map((r) => r.verified));
  const repliesPer = median(runs.map((r) => r.replies / Math.max(1, r.verified)));
  const load = loadavg()[0] ?? 0;
  return {
    headline: { incidents: INCIDENTS, verification_lag_s_p50: p50, verification_lag_s_p95: p95, verification_lag_s_max: max, verified, replies_per_incident: repliesPer, load_1m: Number(load.toFixed(2)) },
    table: {
      columns: ['incidents', 'window_s', 'lag_p50_s', 'lag_p95_s', 'lag_max_s', 'verified', 'replies/incident', 'setup_s', 'load'],
      rows: runs.map((r) => [INCIDENTS, WINDOW_S, pct(r.lags, 0.5), pct(r.lags, 0.95), Math.max(0, ...r.lags), r.verified, r.replies / Math.max(1, r.verified), r.setupS, load]),
    },
  };
}
