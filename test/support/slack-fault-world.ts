/**
 * A small Medic around a faulty Slack: the real analyze and deliver-card jobs on BullMQ and real
 * Redis, the offline analyst, and the real Slack adapter and client against the sandbox's Web API
 * behind a fault-injecting loopback. Used by the Slack fault tests and the slack-faults bench.
 */
import type { Worker } from 'bullmq';
import { createDeliverCardJob, type DeliverCardDeps } from '../../jobs/deliver-card.js';
import { createAnalyzeJob } from '../../jobs/analyze.js';
import { createRedisCardDeliveryState, createRedisCardVersions } from '../../src/adapters/redis/card-delivery-state.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import { createRedisCallPacer } from '../../src/adapters/redis/slack-pacer.js';
import { createRedisPostLedger } from '../../src/adapters/redis/post-ledger.js';
import { createSlackChat } from '../../src/adapters/slack/slack-chat.js';
import { createSlackWebClient } from '../../src/adapters/slack/web-client.js';
import { createOfflineAnalyst } from '../../src/analysts/offline-analyst.js';
import { createCardDeliveries } from '../../src/app/card-deliveries.js';
import { ErrorEvent } from '../../src/domain/event.js';
import { createIncident, type Incident } from '../../src/domain/incident.js';
import { createLogger } from '../../src/observability/logger.js';
import { createMetrics, type Metrics } from '../../src/observability/metrics.js';
import type { PipelineDeps } from '../../src/pipeline/pipeline-deps.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import { presentIncidentCard } from '../../src/presenters/incident-card.js';
import { createQueues, type Queues } from '../../src/queue/queues.js';
import { startWorker } from '../../src/queue/start-worker.js';
import { createSlackSandbox, type SlackSandbox } from '../../src/sandbox/create-slack-sandbox.js';
import { createLoopbackSlackFaults, type LoopbackSlackFaults } from '../loopback/slack-fault-proxy.js';
import { createTestRedis } from './redis.js';

const TOKEN = 'xoxb-slack-fault-world';

export interface SlackFaultWorldOptions {
  callsPerSecond: number;
  /** One call's deadline (SLACK_TIMEOUT_MS). */
  timeoutMs?: number;
  retryMinMs?: number;
  retryMaxMs?: number;
  /** The channel Medic is configured with. */
  channel?: string;
}

export interface SlackFaultWorld {
  /** The world's Redis and key prefix, for a test that plays a second worker's part on the same keys. */
  redis: Awaited<ReturnType<typeof createTestRedis>>['redis'];
  prefix: string;
  sandbox: SlackSandbox;
  faults: LoopbackSlackFaults;
  store: IncidentStore;
  queues: Queues;
  metrics: Metrics;
  delivery: DeliverCardDeps;
  /** Opens `n` incidents and enqueues their analyses. */
  openIncidents(n: number): Promise<string[]>;
  /** Top-level sandbox messages carrying the incident's card key. */
  cardsOf(id: string): { ts: string; text: string; blocks: unknown[] }[];
  /** The card the incident's stored record renders to now. */
  currentRender(id: string): Promise<{ text: string; blocks: unknown[] }>;
  startWorkers(): void;
  waitFor(what: string, predicate: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function createSlackFaultWorld(options: SlackFaultWorldOptions): Promise<SlackFaultWorld> {
  const { redis, prefix, cleanup } = await createTestRedis();
  const sandbox = await createSlackSandbox({ port: 0, signingSecret: 'unused-here', botToken: TOKEN, medicEventsUrl: 'http://127.0.0.1:9/slack/events' });
  const faults = await createLoopbackSlackFaults(sandbox.apiUrl);
  const store = createIncidentStore(redis, prefix);
  const queues = createQueues(redis, prefix);
  const metrics = createMetrics();
  const logger = createLogger({ level: 'silent' });
  const timeoutMs = options.timeoutMs ?? 2_000;
  const chat = createSlackChat({
    channel: options.channel ?? sandbox.channelId,
    client: createSlackWebClient({ token: TOKEN, apiUrl: faults.apiUrl, retries: 0, timeoutMs }),
    pacer: createRedisCallPacer(redis, prefix, { callsPerSecond: options.callsPerSecond }),
    versions: createRedisCardVersions(redis, prefix),
    posts: createRedisPostLedger(redis, prefix),
    lateWindowMs: 2 * timeoutMs,
    onStale: () => metrics.slackStaleUpdates.inc(),
  });
  const clock = () => new Date();
  const delivery: DeliverCardDeps = {
    store, chat, state: createRedisCardDeliveryState(redis, prefix), clock, logger, metrics,
    retry: { minMs: options.retryMinMs ?? 100, maxMs: options.retryMaxMs ?? 2_000 }, attempts: 1_000,
  };
  const pipeline: PipelineDeps = {
    store, chat, clock, logger, metrics,
    requestCard: (id, version, priority) => queues.enqueueCardDelivery(id, version, priority, delivery.attempts),
    requestReply: createCardDeliveries(queues, delivery.state, delivery.attempts).requestReply,
    logs: { name: 'none', check: async () => ({ name: 'logs', adapter: 'none', ok: true, detail: '' }), poll: async () => ({ events: [], checkpoint: '' }), window: async () => [] },
    analystFor: () => createOfflineAnalyst(),
    findSimilarDocs: async () => [],
    findRecentChanges: async () => [],
    searchCode: async () => [],
    validateFix: () => 'no fix in this world',
    settings: { windowBeforeMs: 0, windowAfterMs: 0, windowLimit: 10, similarDocs: 0, recentChangesDays: 14 },
  };
  const workers: Worker[] = [];
  const workerOptions = { connection: redis, redisPrefix: prefix, lockDurationMs: 30_000, logger };
  let opened = 0;

  return {
    redis, prefix, sandbox, faults, store, queues, metrics, delivery,
    async openIncidents(n) {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const k = opened++;
        const at = new Date().toISOString();
        const event = ErrorEvent.parse({
          id: `file:shop.jsonl@${k}`, source: 'file', time: at, service: 'checkout', severity: 'error',
          message: `Payment gateway ${k} refused the charge`, raw: `Payment gateway ${k} refused the charge`, correlationIds: {}, fields: {},
        });
        const candidate: Incident = createIncident({ id: `inc-fault-${k}`, fingerprint: `fp-fault-${k}`, title: `Payment gateway ${k} refused the charge`, event, at });
        const [result] = await store.ingest([{ event, fingerprint: candidate.fingerprint, candidate }], Date.now());
        const id = result?.incidentId ?? candidate.id;
        await queues.enqueueAnalysis(id, 0);
        ids.push(id);
      }
      return ids;
    },
    cardsOf(id) {
      return sandbox.state.messages
        .filter((m) => !m.threadTs && !m.ephemeralFor && m.metadata?.event_payload.key === `card:${id}`)
        .map((m) => ({ ts: m.ts, text: m.text, blocks: m.blocks }));
    },
    async currentRender(id) {
      const incident = await store.require(id);
      const { text, blocks } = presentIncidentCard({ incident, stats: await store.stats(id), rate: await store.eventRate(id) });
      return { text, blocks };
    },
    startWorkers() {
      workers.push(startWorker(createAnalyzeJob(pipeline, { concurrency: 8 }), workerOptions), startWorker(createDeliverCardJob(delivery), workerOptions));
    },
    async waitFor(what, predicate, waitMs) {
      const deadline = Date.now() + waitMs;
      while (!(await predicate())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      await queues.close();
      await faults.close();
      await sandbox.close();
      await cleanup();
    },
  };
}
