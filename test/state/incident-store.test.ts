import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditLog } from '../../src/adapters/redis/audit-log.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import { PIPELINE_ACTOR } from '../../src/domain/audit.js';
import { createIncident, type Incident } from '../../src/domain/incident.js';
import { buildEvent } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';

let ctx: Awaited<ReturnType<typeof createTestRedis>>;
let store: IncidentStore;

beforeEach(async () => {
  ctx = await createTestRedis();
  store = createIncidentStore(ctx.redis, ctx.prefix);
});
afterEach(async () => ctx.cleanup());

function input(id: string, fingerprint: string, time = '2026-11-30T09:00:00.000Z') {
  const event = buildEvent({ id, time });
  return { event, fingerprint, candidate: createIncident({ id: `inc-${fingerprint}`, fingerprint, title: 't', event, at: time }) };
}

describe('the Redis incident store', () => {
  it('records an event once, opens one incident per family and counts the rest', async () => {
    const results = await store.ingest([input('e1', 'a'), input('e2', 'a', '2026-11-30T09:05:00.000Z'), input('e1', 'a'), input('e3', 'b')], Date.now());
    expect(results.map((r) => r.status)).toEqual(['created', 'absorbed', 'duplicate', 'created']);
    expect(await store.stats('inc-a')).toEqual({ count: 2, firstSeen: '2026-11-30T09:00:00.000Z', lastSeen: '2026-11-30T09:05:00.000Z' });
    expect((await store.recentEvents('inc-a')).map((e) => e.id).sort()).toEqual(['e1', 'e2']);
    expect((await store.pendingAnalysis()).sort()).toEqual(['inc-a', 'inc-b']);
  });

  it('keeps the sample of recorded events bounded during a storm', async () => {
    await store.ingest(Array.from({ length: 500 }, (_, i) => input(`s${i}`, 'storm')), Date.now());
    expect((await store.stats('inc-storm'))?.count).toBe(500);
    expect((await store.recentEvents('inc-storm', 1_000)).length).toBe(20);
  });

  it('serializes concurrent writers: no update is lost and each audit record is written once', async () => {
    await store.ingest([input('e1', 'cas')], Date.now());
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.update('inc-cas', (incident) => ({
          incident: { ...incident, tokens: { ...incident.tokens, [`w${i}`]: i } },
          audit: [{ at: new Date().toISOString(), action: `write.${i}`, outcome: 'done', actor: PIPELINE_ACTOR }],
        })),
      ),
    );
    const incident = await store.require('inc-cas');
    expect(Object.keys(incident.tokens).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `w${i}`).sort());
    expect(incident.version).toBe(10);
    const audit = createAuditLog(ctx.redis, ctx.prefix);
    expect(await audit.length('inc-cas')).toBe(10);
    expect(await audit.length()).toBe(10);
  });

  it('takes a caller\'s copy as a guess only: a stale copy neither loses the other write nor decides a refusal', async () => {
    await store.ingest([input('e1', 'known')], Date.now());
    const stale = await store.require('inc-known');
    const write = (key: string) => (incident: typeof stale) => ({ incident: { ...incident, tokens: { ...incident.tokens, [key]: 1 } }, audit: [] });
    const first = await store.update('inc-known', write('a'), stale);
    expect(first.version).toBe(1);
    // Another writer moved the record on; the stale copy fails the version check and is re-read.
    const second = await store.update('inc-known', write('b'), stale);
    expect(second).toMatchObject({ version: 2, tokens: { a: 1, b: 1 } });
    // A refusal decided on the stale copy would return it; the stored record decides instead.
    const kept = await store.update('inc-known', (incident) => (incident.tokens.b ? undefined : write('c')(incident)), stale);
    expect(kept).toMatchObject({ version: 2, tokens: { a: 1, b: 1 } });
    expect(await store.update('inc-known', write('d'), second)).toMatchObject({ version: 3, tokens: { a: 1, b: 1, d: 1 } });
    // Declining on the stale copy (it has no `a` yet) is not the last word either.
    const onFresh = await store.update('inc-known', (incident) => (incident.tokens.a ? write('e')(incident) : undefined), stale);
    expect(onFresh).toMatchObject({ version: 4, tokens: { a: 1, b: 1, d: 1, e: 1 } });
  });

  it('checks the version of the record itself, whatever its layout and whatever its events carry', async () => {
    // Text that looks like the record's own fields must not be read as its version or state.
    const event = buildEvent({ id: 'e1', fields: { version: '0', state: 'closed' } });
    const candidate = createIncident({ id: 'inc-layout', fingerprint: 'layout', title: 'x,"version":0,"state":"closed"', event, at: event.time });
    await store.ingest([{ event, fingerprint: 'layout', candidate }], Date.now());
    const write = (key: string, state?: 'analyzing') => (incident: Incident) => ({ incident: { ...incident, state: state ?? incident.state, tokens: { ...incident.tokens, [key]: 1 } }, audit: [] });
    const stale = await store.require('inc-layout');
    await store.update('inc-layout', write('a', 'analyzing'), stale);
    expect(await store.update('inc-layout', write('b'), stale)).toMatchObject({ version: 2, tokens: { a: 1, b: 1 } });
    // A record written nested fields first (as earlier releases did) is decoded whole instead.
    const stored = await store.require('inc-layout');
    const { firstEvent, ...rest } = stored;
    await ctx.redis.set(`${ctx.prefix}incident:inc-layout`, JSON.stringify({ firstEvent: { ...firstEvent, fields: { version: String(stored.version) } }, ...rest, version: 7 }));
    expect(await store.update('inc-layout', write('c'), stored)).toMatchObject({ version: 8, tokens: { a: 1, b: 1, c: 1 } });
    expect(await store.countByState()).toMatchObject({ analyzing: 1 });
  });

  it('says clearly when an incident does not exist', async () => {
    await expect(store.require('inc-missing')).rejects.toThrow(/No incident inc-missing/);
  });

  it('forgets processed ids past the retention so dedupe memory stays bounded', async () => {
    await store.ingest([input('old', 'p')], 1_000);
    await store.ingest([input('new', 'p')], 5_000);
    expect(await store.pruneProcessed(2_000)).toBe(1);
  });
});
