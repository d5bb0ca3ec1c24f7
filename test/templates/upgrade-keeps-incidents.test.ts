/**
 * A store written before the miner's structured-token preprocessing (snapshot version 1, its
 * templates masked the older way) keeps its open incidents after the upgrade: new events of the
 * same failures join them, though they now mask to other templates. The store is the fixture's
 * Redis keys as that miner left them (test/fixtures/grouping/store-before-structured-tokens.json).
 */
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import { createTemplateSnapshotStore } from '../../src/adapters/redis/template-snapshot-store.js';
import type { IngestStatus } from '../../src/ports/incident-store.js';
import { createTemplateMiner } from '../../src/domain/templates/template-miner.js';
import { ingestEvents } from '../../src/use-cases/ingest-events.js';
import { buildEvent } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';

interface StoreFixture {
  lines: { message: string; source: string }[];
  keys: Record<string, { type: string; value: unknown }>;
  ttlMs: Record<string, number>;
}

let ctx: Awaited<ReturnType<typeof createTestRedis>>;
beforeEach(async () => {
  ctx = await createTestRedis();
});
afterEach(async () => ctx.cleanup());

async function restoreStore(): Promise<StoreFixture> {
  const fixture = JSON.parse(await readFile(new URL('../fixtures/grouping/store-before-structured-tokens.json', import.meta.url), 'utf8')) as StoreFixture;
  for (const [name, { type, value }] of Object.entries(fixture.keys)) {
    const key = `${ctx.prefix}${name}`;
    if (type === 'string') await ctx.redis.set(key, value as string);
    else if (type === 'hash') await ctx.redis.hset(key, value as Record<string, string>);
    else if (type === 'set') await ctx.redis.sadd(key, ...(value as string[]));
    else if (type === 'zset') await ctx.redis.zadd(key, ...(value as string[]).flatMap((v, i, all) => (i % 2 === 0 ? [all[i + 1] as string, v] : [])));
    else if (type === 'list') await ctx.redis.rpush(key, ...(value as string[]));
    else throw new Error(`fixture key ${name} has type ${type}`);
    const ttl = fixture.ttlMs[name] ?? -1;
    if (ttl > 0) await ctx.redis.pexpire(key, ttl);
  }
  return fixture;
}

const clock = () => new Date('2026-11-30T09:05:00.000Z');
let seq = 0;
const event = (message: string) => buildEvent({ id: `after-${++seq}`, service: 'edge', time: new Date(Date.parse('2026-11-30T09:04:00.000Z') + seq * 1000).toISOString(), message, raw: message, correlationIds: {} });

/** One poll as the poll job runs it: the miner restored from Redis, saved after. */
async function poll(messages: string[]): Promise<[IngestStatus, string][]> {
  const store = createIncidentStore(ctx.redis, ctx.prefix);
  const snapshots = createTemplateSnapshotStore(ctx.redis, ctx.prefix);
  const miner = createTemplateMiner({}, await snapshots.load());
  const seen: [IngestStatus, string][] = [];
  await ingestEvents(messages.map(event), { store, miner, clock, enqueueAnalysis: async () => undefined, onIngested: (status, id) => void seen.push([status, id]) });
  await snapshots.save(miner.snapshot());
  return seen;
}

describe('upgrading the miner keeps open incidents', () => {
  it('lets new events of the same failures join the incidents a version 1 store holds', async () => {
    const fixture = await restoreStore();
    const store = createIncidentStore(ctx.redis, ctx.prefix);
    const before = await store.list();
    expect(before).toHaveLength(4);
    const incidentOf = (firstMessage: string) => before.find((i) => i.firstEvent.message === firstMessage)?.id;
    const [length, ufw, nginx, date] = fixture.lines.map((l) => incidentOf(l.message));

    const seen = await poll([
      'Length: 4526691 (4.3M) [image/png]', // https://github.com/silverwind/droppy/issues/175
      // https://github.com/wazuh/wazuh-ruleset/pull/649
      '[UFW BLOCK] IN=eth0 OUT= MAC=c2:56:27:73:33:cf:c4:f0:81:b0:93:24:08:00 SRC=205.205.205.205 DST=192.168.8.100 LEN=44 TOS=0x00 PREC=0x00 TTL=128 ID=43131 PROTO=UDP SPT=40952 DPT=23 LEN=194',
      fixture.lines[2]!.message,
      fixture.lines[3]!.message,
    ]);
    expect(seen).toEqual([['absorbed', length], ['absorbed', ufw], ['absorbed', nginx], ['absorbed', date]]);
    expect((await store.list()).map((i) => i.id).sort()).toEqual(before.map((i) => i.id).sort());

    // The next poll (a restart, another worker) reads the upgraded snapshot: the same incidents again.
    const snapshot = await createTemplateSnapshotStore(ctx.redis, ctx.prefix).load();
    expect(snapshot?.version).toBe(2);
    expect(snapshot?.groups.every((g) => g.generation === undefined)).toBe(true);
    const again = await poll(['Length: 4550656 (4.3M) [application/octet-stream]', fixture.lines[3]!.message]);
    expect(again).toEqual([['absorbed', length], ['absorbed', date]]);
    expect((await store.stats(length!))?.count).toBe(3);
  });

  it('keeps a version 1 group that no event has claimed yet, marked as such, across a save', async () => {
    await restoreStore();
    await poll(['Length: 4526691 (4.3M) [image/png]']);
    const snapshot = await createTemplateSnapshotStore(ctx.redis, ctx.prefix).load();
    expect(snapshot?.groups.filter((g) => g.generation === 1)).toHaveLength(3);
    expect(snapshot?.groups.filter((g) => g.generation === undefined).map((g) => g.template.join(' '))).toEqual(['Length: <*> [image/png]']);
  });
});
