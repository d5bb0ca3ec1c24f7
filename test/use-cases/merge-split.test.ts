import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import { createIncidentGrouping } from '../../src/adapters/redis/open-from-overflow.js';
import { parseGroupingCommand } from '../../src/adapters/slack/parse-grouping-command.js';
import { createTemplateMiner, type TemplateMiner } from '../../src/domain/templates/template-miner.js';
import { ingestEvents, type IngestDeps } from '../../src/use-cases/ingest-events.js';
import { mergeIncidents, splitFamily, type GroupingDeps } from '../../src/use-cases/open-incident.js';
import { buildEvent } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';
import { APPROVER, buildHarness, STRANGER, type Harness } from '../gateway/support.js';

let ctx: Awaited<ReturnType<typeof createTestRedis>>;
let store: IncidentStore;
let harness: Harness;
let miner: TemplateMiner;
const now = Date.parse('2026-11-30T09:10:00.000Z');

beforeEach(async () => {
  ctx = await createTestRedis();
  store = createIncidentStore(ctx.redis, ctx.prefix);
  harness = buildHarness(ctx.redis, ctx.prefix, { deps: { grouping: createIncidentGrouping(ctx.redis, ctx.prefix, () => new Date(now)) } });
  miner = createTemplateMiner();
});
afterEach(async () => ctx.cleanup());

let seq = 0;
const event = (message: string, fields: Record<string, string> = {}) =>
  buildEvent({ id: `e${++seq}`, service: 'checkout', time: new Date(now).toISOString(), message, raw: message, fields });
const ingest = (events: ReturnType<typeof event>[]) =>
  ingestEvents(events, { store, miner, clock: () => new Date(now), enqueueAnalysis: async () => undefined } satisfies IngestDeps);
const deps = (): GroupingDeps => ({ gateway: harness.gateway, approvals: harness.approvals, store, enqueueAnalysis: async () => undefined });
const byTitle = async (title: string) => (await store.list()).find((i) => i.title === title)!;
const toolCalls = async (tool: string) => (await harness.audit.list({ count: 1000 })).filter((a) => a.action === 'gateway.tool-call' && a.details?.tool === tool);

describe('Merge and Split, for approvers only', () => {
  it('merges one open card into another: events and count move, the decision holds for future events', async () => {
    await ingest([event('cart total mismatch'), event('cart total mismatch'), event('cart total mismatch'), event('basket sum differs'), event('basket sum differs')]);
    const a = await byTitle('basket sum differs');
    const b = await byTitle('cart total mismatch');

    const refused = await mergeIncidents(deps(), { incidentId: a.id, intoIncidentId: b.id, userId: STRANGER });
    expect(refused.ok).toBe(false);
    expect((await store.stats(b.id))?.count).toBe(3);
    expect((await toolCalls('incident.merge')).map((c) => [c.outcome, c.actor.id])).toEqual([['denied', STRANGER]]);

    expect(await mergeIncidents(deps(), { incidentId: a.id, intoIncidentId: b.id, userId: APPROVER })).toMatchObject({ ok: true });
    expect((await store.stats(b.id))?.count).toBe(5);
    expect(await store.require(a.id)).toMatchObject({ state: 'closed', mergedInto: b.id });
    expect((await store.require(b.id)).mergedFrom).toEqual([a.id]);
    // The next "basket" events join the survivor, in this poll and after.
    expect(await ingest([event('basket sum differs')])).toMatchObject({ absorbed: 1 });
    expect((await store.stats(b.id))?.count).toBe(6);
    expect((await store.list()).filter((i) => i.state !== 'closed')).toHaveLength(1);
    // A merged card cannot be merged again.
    expect(await mergeIncidents(deps(), { incidentId: a.id, intoIncidentId: b.id, userId: APPROVER })).toMatchObject({ ok: false });
  });

  it('splits a family by a field from the next event on, refused for a non-approver', async () => {
    await ingest([event('quota exceeded', { tenant: 'acme' }), event('quota exceeded', { tenant: 'globex' })]);
    const quota = await byTitle('quota exceeded');
    expect(await splitFamily(deps(), { incidentId: quota.id, field: 'tenant', userId: STRANGER })).toMatchObject({ ok: false });
    await ingest([event('quota exceeded', { tenant: 'acme' })]);
    expect((await store.list())).toHaveLength(1);

    expect(await splitFamily(deps(), { incidentId: quota.id, field: 'tenant', userId: APPROVER })).toMatchObject({ ok: true });
    await ingest([event('quota exceeded', { tenant: 'acme' }), event('quota exceeded', { tenant: 'globex' }), event('quota exceeded', { tenant: 'acme' })]);
    const titles = (await store.list()).map((i) => i.title).sort();
    expect(titles).toEqual(['quota exceeded', 'quota exceeded [tenant=acme]', 'quota exceeded [tenant=globex]']);
    expect((await toolCalls('incident.split')).map((c) => c.outcome).sort()).toEqual(['allowed', 'denied'].sort());
  });

  it('reads /medic merge A into B and /medic split A by FIELD, and nothing else', () => {
    expect(parseGroupingCommand('merge inc-a into inc-b')).toEqual({ kind: 'merge', incidentId: 'inc-a', intoIncidentId: 'inc-b' });
    expect(parseGroupingCommand('split inc-a by tenant')).toEqual({ kind: 'split', incidentId: 'inc-a', field: 'tenant' });
    for (const text of ['merge inc-a inc-b', 'merge * into inc-b', 'split inc-a by a b', 'status inc-a', 'split inc-a by $x']) expect(parseGroupingCommand(text)).toBeUndefined();
  });
});
