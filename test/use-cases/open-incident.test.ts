import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import { createIncidentGrouping } from '../../src/adapters/redis/open-from-overflow.js';
import { ingestEvents, type IngestDeps } from '../../src/use-cases/ingest-events.js';
import { openIncidentFromOverflow, type GroupingDeps } from '../../src/use-cases/open-incident.js';
import { buildEvent } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';
import { APPROVER, buildHarness, STRANGER, type Harness } from '../gateway/support.js';

let ctx: Awaited<ReturnType<typeof createTestRedis>>;
let store: IncidentStore;
let harness: Harness;
let analyses: string[];
const now = Date.parse('2026-11-30T09:10:00.000Z');

beforeEach(async () => {
  ctx = await createTestRedis();
  store = createIncidentStore(ctx.redis, ctx.prefix);
  harness = buildHarness(ctx.redis, ctx.prefix, { deps: { grouping: createIncidentGrouping(ctx.redis, ctx.prefix, () => new Date(now)) } });
  analyses = [];
});
afterEach(async () => ctx.cleanup());

let seq = 0;
const event = (message: string) => buildEvent({ id: `e${++seq}`, service: 'checkout', time: new Date(now).toISOString(), message, raw: message });
const ingest = (): IngestDeps => ({
  store, clock: () => new Date(now), enqueueAnalysis: async () => undefined,
  storm: { open: { minEvents: 1, windowS: 300 }, rules: {}, maxNewPerHour: 1, maxNewPerServiceHour: 20 },
});
const deps = (): GroupingDeps => ({ gateway: harness.gateway, approvals: harness.approvals, store, enqueueAnalysis: async (id) => void analyses.push(id) });

describe('Open incident from the overflow card', () => {
  it('is refused and audited for a non-approver, and opens the family for an approver with its events moved', async () => {
    await ingestEvents(Array.from({ length: 30 }, () => event('payment gateway down')), ingest());
    await ingestEvents([event('ledger sync refused'), event('ledger sync refused')], ingest());
    const overflow = (await store.list()).find((i) => i.fingerprint.startsWith('overflow:'))!;
    const [family] = await store.overflowFamilies(overflow.fingerprint);
    const click = { overflowIncidentId: overflow.id, fingerprint: family!.fingerprint };

    const refused = await openIncidentFromOverflow(deps(), { ...click, userId: STRANGER });
    expect(refused.ok).toBe(false);
    expect(refused.message).toContain('Only approvers');
    expect(await store.openIncidentOf(family!.fingerprint)).toBeUndefined();

    const opened = await openIncidentFromOverflow(deps(), { ...click, userId: APPROVER });
    expect(opened.ok).toBe(true);
    const incident = await store.require(opened.incidentId!);
    expect(incident).toMatchObject({ promotedFrom: overflow.id, service: 'checkout', title: 'ledger sync refused', state: 'new' });
    expect(analyses).toEqual([incident.id]);
    expect((await store.stats(incident.id))?.count).toBe(2);
    expect((await store.stats(overflow.id))?.count).toBe(0);
    // The family's next events join its own incident; a second click opens nothing new.
    expect(await ingestEvents([event('ledger sync refused')], ingest())).toMatchObject({ absorbed: 1 });
    expect(await openIncidentFromOverflow(deps(), { ...click, userId: APPROVER })).toMatchObject({ ok: true, incidentId: incident.id });
    expect(analyses).toHaveLength(1);

    const trail = (await harness.audit.list({ incidentId: overflow.id })).filter((a) => a.action === 'gateway.tool-call' && a.details?.tool === 'incident.open-from-overflow');
    expect(trail.map((a) => a.outcome)).toContain('denied');
    expect(trail.filter((a) => a.outcome !== 'denied').length).toBeGreaterThanOrEqual(1);
    expect(trail.find((a) => a.outcome === 'denied')?.actor.id).toBe(STRANGER);
  });
});
