import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { archiveAudit } from '../../jobs/archive-audit.js';
import { createAuditLog } from '../../src/adapters/redis/audit-log.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import { PIPELINE_ACTOR } from '../../src/domain/audit.js';
import { transition, type IncidentState } from '../../src/domain/incident.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import { createIncidentReads } from '../../src/use-cases/create-incident-commands.js';
import { buildEvent, buildIncident } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';

type TestRedis = Awaited<ReturnType<typeof createTestRedis>>;

/** Opens `n` incidents (one event each) numbered from `from`, in one ingest call per 500. */
async function open(store: IncidentStore, from: number, n: number, nowMs = Date.now()): Promise<string[]> {
  const ids: string[] = [];
  for (let start = from; start < from + n; start += 500) {
    const inputs = Array.from({ length: Math.min(500, from + n - start) }, (_, k) => {
      const i = start + k;
      const event = buildEvent({ id: `e-${i}`, message: `failure ${i}` });
      return { event, fingerprint: `fp-${i}`, candidate: buildIncident({ id: `inc-${i}`, fingerprint: `fp-${i}`, firstEvent: event }) };
    });
    ids.push(...(await store.ingest(inputs, nowMs + start)).map((r) => r.incidentId));
  }
  return ids;
}

/** Moves an incident to `state` with one audit record, as a use-case would. */
function move(store: IncidentStore, id: string, state: IncidentState) {
  const at = new Date().toISOString();
  return store.update(id, (current) => ({ incident: transition(current, state, at), audit: [{ at, action: `test.${state}`, outcome: 'done', actor: PIPELINE_ACTOR }] }));
}

async function inChunks<T>(items: T[], size: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

describe('bounded state', () => {
  let t: TestRedis;
  beforeEach(async () => void (t = await createTestRedis()));
  afterEach(async () => t.cleanup());

  it('a resolved incident expires after its retention, with its audit trail, and leaves every index', async () => {
    const store = createIncidentStore(t.redis, t.prefix, { retentionMs: 400 });
    const [kept, resolved] = await open(store, 0, 2);
    await move(store, kept!, 'analyzing');
    await move(store, resolved!, 'analyzing');
    await move(store, resolved!, 'closed');
    // A later write (feedback on a closed incident) keeps the retention running.
    await store.update(resolved!, (current) => ({ incident: { ...current, feedback: [] }, audit: [] }));
    expect(await t.redis.pttl(`${t.prefix}incident:${resolved}`)).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await store.get(resolved!)).toBeUndefined();
    expect(await t.redis.exists(`${t.prefix}audit:${resolved}`, `${t.prefix}incident:${resolved}:stats`, `${t.prefix}incident:${resolved}:events`)).toBe(0);
    expect(await store.pruneExpired(Date.now())).toBe(1);
    expect((await store.list()).map((i) => i.id)).toEqual([kept]);
    expect(await store.list({ states: ['closed'] })).toEqual([]);
    expect(await store.countByState()).toMatchObject({ analyzing: 1, closed: 0 });
    // The open one is kept: retention only starts at resolution.
    expect(await t.redis.pttl(`${t.prefix}incident:${kept}`)).toBe(-1);
  });

  it('a reopened incident is kept again', async () => {
    const store = createIncidentStore(t.redis, t.prefix, { retentionMs: 60_000 });
    const [id] = await open(store, 0, 1);
    await move(store, id!, 'closed');
    expect(await t.redis.pttl(`${t.prefix}incident:${id}`)).toBeGreaterThan(0);
    await move(store, id!, 'new');
    expect(await t.redis.pttl(`${t.prefix}incident:${id}`)).toBe(-1);
    expect(await t.redis.zscore(`${t.prefix}expiring`, id!)).toBeNull();
  });

  it('the audit stream stays under its cap through 10,000 incidents', async () => {
    const cap = 2_000;
    const store = createIncidentStore(t.redis, t.prefix, { auditMaxLen: cap });
    const audit = createAuditLog(t.redis, t.prefix, { maxLen: cap });
    const ids = await open(store, 0, 10_000);
    await inChunks(ids, 200, (id) => move(store, id, 'analyzing'));
    await audit.append([{ at: new Date().toISOString(), action: 'test.other', outcome: 'done', actor: PIPELINE_ACTOR }]);
    const length = await audit.length();
    // MAXLEN ~ trims whole stream nodes (stream-node-max-entries, 100 by default): at most one node over.
    expect(length).toBeGreaterThanOrEqual(cap);
    expect(length).toBeLessThanOrEqual(cap + 100);
    // The newest records are the ones kept.
    expect((await audit.list({ count: 1 }))[0]?.action).toBe('test.other');
  }, 120_000);

  it('archives the audit stream to a JSON-lines file before the cap trims it, each record once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'medic-archive-'));
    try {
      const cap = 1_000;
      const audit = createAuditLog(t.redis, t.prefix, { maxLen: cap });
      const deps = { redis: t.redis, prefix: t.prefix, file: join(dir, 'audit', 'medic-audit.jsonl'), batch: 300 };
      const record = (i: number) => ({ at: new Date().toISOString(), action: `test.${i}`, outcome: 'done' as const, actor: PIPELINE_ACTOR });
      for (let i = 0; i < 900; i++) await audit.append([record(i)]);
      expect(await archiveAudit(deps)).toBe(900);
      for (let i = 900; i < 3_000; i += 500) {
        await audit.append(Array.from({ length: 500 }, (_, k) => record(i + k)).slice(0, 3_000 - i));
        await archiveAudit(deps);
      }
      const lines = (await readFile(deps.file, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { id: string; action: string });
      expect(lines.map((l) => l.action)).toEqual(Array.from({ length: 3_000 }, (_, i) => `test.${i}`));
      expect(new Set(lines.map((l) => l.id)).size).toBe(3_000);
      expect(await audit.length()).toBeLessThanOrEqual(cap + 100);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('listing by state finds an old open incident beyond the newest 1,000', async () => {
    const store = createIncidentStore(t.redis, t.prefix);
    const [old] = await open(store, 0, 1, Date.now() - 86_400_000);
    await move(store, old!, 'analyzing');
    await move(store, old!, 'awaiting_approval');
    const newer = await open(store, 1, 1_500);
    await inChunks(newer, 200, (id) => move(store, id, 'closed'));
    expect((await store.list()).map((i) => i.id)).not.toContain(old);
    const open_ = await createIncidentReads(store).list({ openOnly: true });
    expect(open_.map((v) => v.incident.id)).toEqual([old]);
    expect((await store.list({ states: ['awaiting_approval'] })).map((i) => i.id)).toEqual([old]);
    expect(await store.list({ states: ['closed'], limit: 5 })).toHaveLength(5);
  }, 60_000);

  it('indexes by state the incidents recorded before the indexes existed', async () => {
    const store = createIncidentStore(t.redis, t.prefix);
    const ids = await open(store, 0, 3);
    await move(store, ids[0]!, 'analyzing');
    // As an older release left them: no per-state sets, no marker.
    const stale = await t.redis.keys(`${t.prefix}incidents:state*`);
    await t.redis.del(...stale);
    const fresh = createIncidentStore(t.redis, t.prefix);
    expect((await fresh.list({ states: ['new'] })).map((i) => i.id).sort()).toEqual([ids[1], ids[2]].sort());
    expect((await fresh.list({ states: ['analyzing'] })).map((i) => i.id)).toEqual([ids[0]]);
  });
});
