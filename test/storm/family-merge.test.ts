import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditLog } from '../../src/adapters/redis/audit-log.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import { createTemplateMiner } from '../../src/domain/templates/template-miner.js';
import { ingestEvents, type IngestDeps } from '../../src/use-cases/ingest-events.js';
import { buildEvent } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';

let ctx: Awaited<ReturnType<typeof createTestRedis>>;
let store: IncidentStore;
const now = Date.parse('2026-11-30T09:10:00.000Z');

beforeEach(async () => {
  ctx = await createTestRedis();
  store = createIncidentStore(ctx.redis, ctx.prefix);
});
afterEach(async () => ctx.cleanup());

let seq = 0;
const lockWait = (user: string, service = 'orders') =>
  buildEvent({ id: `e${++seq}`, service, time: new Date(now + seq * 1000).toISOString(), message: `lock wait timeout for user ${user} on table orders`, raw: `lock wait timeout for user ${user} on table orders` });

function deps(miner = createTemplateMiner(), seen: [string, string][] = []): IngestDeps {
  return { store, miner, clock: () => new Date(now), enqueueAnalysis: async () => undefined, onIngested: (status, id) => void seen.push([status, id]) };
}

async function openIncidents() {
  return (await store.list()).filter((i) => i.state !== 'closed');
}

describe('families merging while their incidents are open', () => {
  it('folds the younger family incident into the older one: every event kept, one card, both audited', async () => {
    const miner = createTemplateMiner();
    const seen: [string, string][] = [];
    await ingestEvents([lockWait('alice'), lockWait('alice'), lockWait('bob'), lockWait('bob'), lockWait('bob')], deps(miner, seen));
    // Two words differ at one position: not yet evidence of a variable, so two incidents.
    expect(await openIncidents()).toHaveLength(2);
    const [alice, bob] = [seen[0]![1], seen[2]![1]];

    // A third user is the evidence: the families merge, and so do their open incidents.
    await ingestEvents([lockWait('carol')], deps(miner, seen));
    const open = await openIncidents();
    expect(open.map((i) => i.id)).toEqual([alice]);
    expect(open[0]!.mergedFrom).toEqual([bob]);
    expect((await store.stats(alice))?.count).toBe(6);
    // The per-minute rate follows the events: the retired incident's minutes join the survivor's.
    expect(Object.values(await store.eventRate(alice)).reduce((a, b) => a + b, 0)).toBe(6);
    expect(await store.recentEvents(alice)).toHaveLength(6);
    const gone = await store.require(bob);
    expect(gone).toMatchObject({ state: 'closed', mergedInto: alice });
    expect(await store.resolve(bob)).toBe(alice);

    const audit = createAuditLog(ctx.redis, ctx.prefix);
    expect((await audit.list({ incidentId: bob })).filter((a) => a.action === 'incident.merged')).toHaveLength(1);
    expect((await audit.list({ incidentId: alice })).filter((a) => a.action === 'incident.absorbed')).toHaveLength(1);
    // Finishing again (the next poll) changes nothing and audits nothing twice.
    await ingestEvents([], deps(miner));
    expect((await audit.list({ incidentId: bob })).filter((a) => a.action === 'incident.merged')).toHaveLength(1);
  });

  it('moves a merged family into the survivor when only the retired one had an incident', async () => {
    const miner = createTemplateMiner();
    const seen: [string, string][] = [];
    // alice forms (held, opening rule 3 events) while bob opens; the merge makes bob's incident the family's.
    const rule = { open: { minEvents: 3, windowS: 300 }, rules: {}, maxNewPerHour: 50, maxNewPerServiceHour: 20 };
    await ingestEvents([lockWait('alice'), lockWait('bob'), lockWait('bob'), lockWait('bob')], { ...deps(miner, seen), storm: rule });
    const bob = seen.find(([s]) => s === 'created')![1];
    await ingestEvents([lockWait('carol'), lockWait('dave')], { ...deps(miner, seen), storm: rule });
    const open = await openIncidents();
    expect(open.map((i) => i.id)).toEqual([bob]);
    // alice's held event and carol's and dave's joined bob's incident: nothing lost.
    expect((await store.stats(bob))?.count).toBe(6);
    expect(seen.slice(-2).map(([s, id]) => [s, id])).toEqual([['absorbed', bob], ['absorbed', bob]]);
  });

  it('never merges across services: the scope keeps them apart', async () => {
    const miner = createTemplateMiner();
    await ingestEvents([lockWait('alice', 'orders'), lockWait('bob', 'billing'), lockWait('carol', 'orders')], deps(miner));
    expect((await openIncidents()).map((i) => i.service).sort()).toEqual(['billing', 'orders']);
  });
});
