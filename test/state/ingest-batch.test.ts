/**
 * A batch of events in one script call ends exactly where the same events, one call each, end:
 * the same status for every event in input order, and the same Redis state key by key (records,
 * counts, first/last seen, samples in order, activity, caps, overflow, forming families, merges).
 */
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import type { ErrorEvent, Severity } from '../../src/domain/event.js';
import { createTemplateMiner } from '../../src/domain/templates/template-miner.js';
import type { IncidentStore, IngestStatus } from '../../src/ports/incident-store.js';
import { ingestEvents, type IngestDeps } from '../../src/use-cases/ingest-events.js';
import { buildEvent } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';
import { seeded } from '../support/storm-events.js';

let batched: Awaited<ReturnType<typeof createTestRedis>>;
let single: Awaited<ReturnType<typeof createTestRedis>>;
const now = Date.parse('2026-11-30T09:10:00.000Z');

beforeEach(async () => {
  [batched, single] = await Promise.all([createTestRedis(), createTestRedis()]);
});
afterEach(async () => {
  await Promise.all([batched.cleanup(), single.cleanup()]);
});

/** The same store, but every event its own call: the per-event semantics the batch must keep. */
function oneCallEach(store: IncidentStore): IncidentStore {
  return {
    ...store,
    async ingest(inputs, nowMs, options) {
      const out: Awaited<ReturnType<IncidentStore['ingest']>> = [];
      for (const input of inputs) out.push(...(await store.ingest([input], nowMs, options)));
      return out;
    },
  };
}

const FAMILIES = [
  (n: number) => `payment declined for order ${n}`,
  (n: number) => `lock wait timeout for user ${['alice', 'bob', 'carol', 'dave'][n % 4]} on table orders`,
  (n: number) => `cache miss storm on shard ${n % 3}`,
  (n: number) => `disk full on volume vol-${n}`,
  (n: number) => `upstream timeout after ${n} ms`,
  (n: number) => `token expired for session ${n}`,
];

/** A seeded mixed stream: several services and severities, repeats (duplicates), rare and loud families. */
function stream(total: number, seed: number): ErrorEvent[] {
  const rand = seeded(seed);
  const events: ErrorEvent[] = [];
  for (let n = 0; n < total; n++) {
    const repeat = events.length > 0 && rand() < 0.05;
    if (repeat) {
      events.push(events[Math.floor(rand() * events.length)]!);
      continue;
    }
    // Skewed: the first families are loud, the last ones rare, so caps, overflow and promotion all happen.
    const family = Math.min(FAMILIES.length - 1, Math.floor(-Math.log(1 - rand()) * 1.6));
    const service = family < 3 ? 'checkout' : ['orders', 'checkout'][n % 2]!;
    const severity: Severity = rand() < 0.1 ? 'critical' : 'error';
    const message = FAMILIES[family]!(n);
    events.push(buildEvent({ id: `e${seed}-${n}`, service, severity, time: new Date(now - 60_000 + n * 37).toISOString(), message, raw: message, correlationIds: { txn_id: `t${n}` } }));
  }
  return events;
}

async function dump(redis: Redis, prefix: string): Promise<Record<string, unknown>> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  const out: Record<string, unknown> = {};
  const strip = (text: string) => text.split(prefix).join('<prefix>');
  for (const key of keys.sort()) {
    const type = await redis.type(key);
    let value: unknown;
    if (type === 'string') value = await redis.get(key);
    else if (type === 'hash') value = await redis.hgetall(key);
    else if (type === 'list') value = await redis.lrange(key, 0, -1);
    else if (type === 'set') value = (await redis.smembers(key)).sort();
    else if (type === 'zset') value = await redis.zrange(key, 0, -1, 'WITHSCORES');
    else if (type === 'stream') value = (await redis.xrange(key, '-', '+')).map(([, fields]) => fields);
    else continue;
    out[strip(key)] = JSON.parse(strip(JSON.stringify(value))) as unknown;
  }
  return out;
}

async function ingestBoth(events: ErrorEvent[], storm: IngestDeps['storm'], polls: number, between?: (store: IncidentStore, poll: number) => Promise<void>) {
  const statuses = { batched: [] as [IngestStatus, string][], single: [] as [IngestStatus, string][] };
  const sides = [
    { ctx: batched, store: createIncidentStore(batched.redis, batched.prefix), seen: statuses.batched },
    { ctx: single, store: oneCallEach(createIncidentStore(single.redis, single.prefix)), seen: statuses.single },
  ];
  for (const side of sides) {
    const miner = createTemplateMiner();
    const per = Math.ceil(events.length / polls);
    for (let i = 0; i < events.length; i += per) {
      if (i > 0) await between?.(side.store, i / per);
      await ingestEvents(events.slice(i, i + per), {
        store: side.store, miner, storm, clock: () => new Date(now), enqueueAnalysis: async () => undefined,
        onIngested: (status, id) => void side.seen.push([status, id.split(side.ctx.prefix).join('')]),
      });
    }
  }
  return { statuses, states: await Promise.all(sides.map((s) => dump(s.ctx.redis, s.ctx.prefix))) };
}

describe('ingest in batch script calls', () => {
  it('keeps per-event semantics under caps, overflow, promotion and duplicates', async () => {
    const events = stream(1_500, 11);
    const { statuses, states } = await ingestBoth(events, { open: { minEvents: 1, windowS: 300 }, rules: {}, maxNewPerHour: 50, maxNewPerServiceHour: 2 }, 2);
    expect(statuses.batched).toEqual(statuses.single);
    const seen = new Set(statuses.batched.map(([s]) => s));
    for (const status of ['created', 'absorbed', 'overflow', 'duplicate'] as const) expect(seen).toContain(status);
    expect(Object.values(states[0]!).some((v) => typeof v === 'string' && v.includes('"promotedFrom"'))).toBe(true);
    expect(states[0]).toEqual(states[1]);
  });

  it('keeps per-event semantics with an opening rule (held families), merges and several polls', async () => {
    const events = stream(1_200, 5);
    const { statuses, states } = await ingestBoth(events, { open: { minEvents: 4, windowS: 300 }, rules: {}, maxNewPerHour: 3, maxNewPerServiceHour: 20 }, 3);
    expect(statuses.batched).toEqual(statuses.single);
    expect(new Set(statuses.batched.map(([s]) => s))).toContain('held');
    expect(states[0]).toEqual(states[1]);
  });

  it('sends events that cannot be sampled without their JSON, and the whole batch again when a fingerprint closed meanwhile', async () => {
    const events = stream(3_000, 17);
    const replayed = [...events.slice(0, 1_000), ...events.slice(500, 1_500), ...events.slice(1_000)];
    const releaseAll = async (store: IncidentStore, poll: number) => {
      // The second poll replays the first (duplicates); before the third, every incident closes its family.
      if (poll !== 2) return;
      for (const incident of await store.list()) await store.releaseFingerprint(incident);
    };
    const { statuses, states } = await ingestBoth(replayed, { open: { minEvents: 1, windowS: 300 }, rules: {}, maxNewPerHour: 50, maxNewPerServiceHour: 20 }, 4, releaseAll);
    expect(statuses.batched).toEqual(statuses.single);
    expect(statuses.batched.filter(([s]) => s === 'duplicate').length).toBeGreaterThan(500);
    expect(states[0]).toEqual(states[1]);
    // Each incident's sample holds its newest events, whole (a merged one handed its own on).
    const store = createIncidentStore(batched.redis, batched.prefix);
    for (const incident of (await store.list()).filter((i) => !i.mergedInto)) {
      const sample = await store.recentEvents(incident.id);
      expect(sample.length).toBeGreaterThan(0);
      expect(sample.every((e) => e.message.length > 0)).toBe(true);
    }
  });

  it('keeps per-event semantics in short streams, where samples and forming lists are still short', async () => {
    for (const seed of [1, 2, 3, 4]) {
      await Promise.all([batched.cleanup(), single.cleanup()]);
      [batched, single] = await Promise.all([createTestRedis(), createTestRedis()]);
      const { statuses, states } = await ingestBoth(stream(60, seed), { open: { minEvents: 2, windowS: 300 }, rules: {}, maxNewPerHour: 1, maxNewPerServiceHour: 20 }, 1);
      expect(statuses.batched).toEqual(statuses.single);
      expect(states[0]).toEqual(states[1]);
    }
  });
});
