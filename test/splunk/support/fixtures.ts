import type { Redis } from 'ioredis';
import { afterEach } from 'vitest';
import { createCheckpointStore } from '../../../src/adapters/redis/checkpoint-store.js';
import { createIncidentStore } from '../../../src/adapters/redis/incident-store.js';
import { createSplunkLogSource, type SplunkLogSource } from '../../../src/adapters/splunk/splunk-log-source.js';
import type { SplunkAuth, SplunkLogSourceOptions } from '../../../src/adapters/splunk/splunk-options.js';
import type { ErrorEvent } from '../../../src/domain/event.js';
import { fingerprintEvent } from '../../../src/domain/fingerprint.js';
import { createIncident } from '../../../src/domain/incident.js';
import type { LogSource } from '../../../src/ports/log-source.js';
import { createTestRedis } from '../../support/redis.js';
import { buildSplunkRow, startLoopbackSplunk, type LoopbackSplunk, type LoopbackSplunkOptions, type SplunkEventRow } from '../../loopback/splunk-server.js';

export const T0 = 1_800_000_000; // epoch seconds the loopback clock starts at

export interface ErrorRowInput {
  n: number;
  indexTime: number;
  time?: string;
  txn?: string;
  session?: string;
  level?: string;
  service?: string;
  message?: string;
  extra?: Record<string, string>;
}

/** A multi-line error event as Splunk would hold it (line-merged stack trace, extracted fields). */
export function buildErrorRow(input: ErrorRowInput): SplunkEventRow {
  const time = input.time ?? new Date(input.indexTime * 1000).toISOString();
  const message = input.message ?? 'Payment declined by the gateway';
  const level = input.level ?? 'ERROR';
  const txn = input.txn ?? `txn-${input.n}`;
  const raw = `${time} ${level} [checkout] ${message} order=${input.n} txn_id=${txn}\nError: ${message}\n    at charge (src/payment/charge.ts:42:11)\n    at checkout (src/checkout.ts:17:3)`;
  const fields: Record<string, string> = { level, service: input.service ?? 'checkout', txn_id: txn, message, ...input.extra };
  if (input.session) fields.sessionId = input.session;
  return buildSplunkRow({ cd: `26:${input.n}`, time, indexTime: input.indexTime, raw, fields });
}

export interface SplunkFixture {
  server: LoopbackSplunk;
  source: SplunkLogSource;
  clock: { now: number };
  invalid: { id: string; reason: string }[];
  close(): Promise<void>;
}

export const CREDENTIALS = { token: 'tok-loopback-1', username: 'medic', password: 's3cret-pw' };

export async function startSplunkFixture(
  options: { auth?: SplunkAuth; server?: LoopbackSplunkOptions; source?: Partial<SplunkLogSourceOptions>; client?: Partial<SplunkLogSourceOptions['client']> } = {},
): Promise<SplunkFixture> {
  const clock = { now: T0 };
  const server = await startLoopbackSplunk({ ...CREDENTIALS, nowS: () => clock.now, ...options.server });
  const invalid: { id: string; reason: string }[] = [];
  const source = createSplunkLogSource({
    client: { url: server.url, auth: options.auth ?? { kind: 'token', token: CREDENTIALS.token }, retryBaseMs: 1, readTimeoutMs: 2_000, connectTimeoutMs: 1_000, ...options.client },
    search: 'search index=main (level=ERROR OR status=ERROR)',
    windowSearch: 'search index=main',
    correlationFields: ['txn_id', 'orderNumber', 'requestId'],
    onInvalid: (id, reason) => invalid.push({ id, reason }),
    ...options.source,
  });
  return { server, source, clock, invalid, close: async () => { source.close(); await server.close(); } };
}

/** Starts a test's Splunk fixture and Redis on demand, and closes what it started after each test. */
export function closedAfterEach() {
  let fixture: SplunkFixture | undefined;
  let redis: Awaited<ReturnType<typeof createTestRedis>> | undefined;
  afterEach(async () => {
    await fixture?.close();
    await redis?.cleanup();
    fixture = undefined;
    redis = undefined;
  });
  return {
    fixture: async (options?: Parameters<typeof startSplunkFixture>[0]) => (fixture = await startSplunkFixture(options)),
    redis: async () => (redis = await createTestRedis()),
  };
}

export function toIngestInput(event: ErrorEvent) {
  const fingerprint = fingerprintEvent(event, event.message);
  const candidate = createIncident({ id: `inc-${fingerprint.key}`, fingerprint: fingerprint.key, title: fingerprint.title, event, at: event.time });
  return { event, fingerprint: fingerprint.key, candidate };
}

/** What the poll job does: poll from the stored checkpoint, ingest, and only then advance it. */
export function createPollTick(source: LogSource, redis: Redis, prefix: string) {
  const checkpoints = createCheckpointStore(redis, prefix);
  const store = createIncidentStore(redis, prefix);
  return {
    checkpoints,
    store,
    async tick(options: { crashBeforeCheckpoint?: boolean } = {}) {
      const { events, checkpoint } = await source.poll(await checkpoints.get(source.name));
      const statuses = await store.ingest(events.map(toIngestInput), Date.now());
      if (!options.crashBeforeCheckpoint) await checkpoints.set(source.name, checkpoint);
      return { events, statuses: statuses.map((s) => s.status) };
    },
    /** Every event id the store has processed. */
    processed: () => redis.zrange(`${prefix}processed`, 0, -1),
  };
}
