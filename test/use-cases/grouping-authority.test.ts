/**
 * Grouping decisions stay inside a service: a merge needs authority on both incidents, a split
 * divides only its own service's family, and opening a family from the overflow card needs
 * authority on that family's service — not only on the overflow incident's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import { createIncidentGrouping } from '../../src/adapters/redis/open-from-overflow.js';
import { assembleCatalog } from '../../src/domain/catalog/assemble-catalog.js';
import { parseCatalogFile } from '../../src/domain/catalog/parse-catalog-file.js';
import { resolveService } from '../../src/domain/catalog/resolve-service.js';
import { createCatalogAuthority } from '../../src/gateway/authority/catalog-authority.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import { ingestEvents, type IngestDeps } from '../../src/use-cases/ingest-events.js';
import { mergeIncidents, openIncidentFromOverflow, splitFamily, type GroupingDeps } from '../../src/use-cases/open-incident.js';
import { createTemplateMiner, type TemplateMiner } from '../../src/domain/templates/template-miner.js';
import { buildEvent } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';
import { buildHarness, type Harness } from '../gateway/support.js';

// Undeclared services (the overflow incident's own, `medic`) route to checkout, as a catch-all does.
const { catalog } = assembleCatalog([parseCatalogFile(`version: 1
unknown_services:
  route_to: checkout
services:
  - name: checkout
    approvers: [U_CHECKOUT]
  - name: payments
    approvers: [U_PAY]
`, 'c.yaml').part!], { channel: 'incidents' });

let ctx: Awaited<ReturnType<typeof createTestRedis>>;
let store: IncidentStore;
let harness: Harness;
let miner: TemplateMiner;
const now = Date.parse('2026-11-30T09:10:00.000Z');

beforeEach(async () => {
  ctx = await createTestRedis();
  store = createIncidentStore(ctx.redis, ctx.prefix);
  const authority = createCatalogAuthority({
    approvers: [], elevatedApprovers: [], readers: [],
    routeOf: async (id) => resolveService(catalog!, (await store.get(id))?.service ?? ''),
    routeOfService: (service) => resolveService(catalog!, service),
  });
  harness = buildHarness(ctx.redis, ctx.prefix, { authority, deps: { grouping: createIncidentGrouping(ctx.redis, ctx.prefix, () => new Date(now)) } });
  miner = createTemplateMiner();
});
afterEach(async () => ctx.cleanup());

let seq = 0;
const event = (service: string, message: string, fields: Record<string, string> = {}) =>
  buildEvent({ id: `e${++seq}`, service, time: new Date(now).toISOString(), message, raw: message, fields });
const ingest = (events: ReturnType<typeof event>[], storm?: IngestDeps['storm']) =>
  ingestEvents(events, { store, miner, clock: () => new Date(now), enqueueAnalysis: async () => undefined, ...(storm ? { storm } : {}) });
const deps = (): GroupingDeps => ({ gateway: harness.gateway, approvals: harness.approvals, store, enqueueAnalysis: async () => undefined });
const incidentOf = async (service: string, title: string) => (await store.list()).find((i) => i.service === service && i.title === title)!;

describe('grouping decisions, per service', () => {
  it('refuses a merge whose survivor belongs to a service the caller does not approve', async () => {
    await ingest([event('checkout', 'cart total mismatch'), event('payments', 'ledger write refused')]);
    const cart = await incidentOf('checkout', 'cart total mismatch');
    const ledger = await incidentOf('payments', 'ledger write refused');

    const intoOther = await mergeIncidents(deps(), { incidentId: cart.id, intoIncidentId: ledger.id, userId: 'U_CHECKOUT' });
    expect(intoOther).toMatchObject({ ok: false, message: expect.stringContaining(`on ${ledger.id}, which this action also changes`) });
    const fromOther = await mergeIncidents(deps(), { incidentId: ledger.id, intoIncidentId: cart.id, userId: 'U_CHECKOUT' });
    expect(fromOther.ok).toBe(false);
    expect(await store.require(cart.id)).toMatchObject({ state: 'new' });
    expect((await store.require(ledger.id)).mergedInto).toBeUndefined();
  });

  it("divides only the splitting service's family, even where another service mines the same one", async () => {
    await ingest([event('checkout', 'quota exceeded', { tenant: 'acme' }), event('payments', 'quota exceeded', { tenant: 'acme' })]);
    const checkout = await incidentOf('checkout', 'quota exceeded');
    const payments = await incidentOf('payments', 'quota exceeded');
    expect(checkout.family?.groupId).toBe(payments.family?.groupId);

    expect(await splitFamily(deps(), { incidentId: checkout.id, field: 'tenant', userId: 'U_CHECKOUT' })).toMatchObject({ ok: true });
    await ingest([event('checkout', 'quota exceeded', { tenant: 'globex' }), event('payments', 'quota exceeded', { tenant: 'globex' }), event('payments', 'quota exceeded', { tenant: 'initech' })]);
    const titles = (service: string) => store.list().then((all) => all.filter((i) => i.service === service).map((i) => i.title).sort());
    expect(await titles('checkout')).toEqual(['quota exceeded', 'quota exceeded [tenant=globex]']);
    expect(await titles('payments')).toEqual(['quota exceeded']);
    expect((await store.stats(payments.id))?.count).toBe(3);
  });

  it("opens a family from the overflow card only for an approver of that family's service", async () => {
    const storm = { open: { minEvents: 1, windowS: 300 }, rules: {}, maxNewPerHour: 1, maxNewPerServiceHour: 20 };
    await ingest([event('checkout', 'payment gateway down')], storm);
    await ingest([event('payments', 'ledger sync refused'), event('checkout', 'basket lost')], storm);
    const overflow = (await store.list()).find((i) => i.fingerprint.startsWith('overflow:'))!;
    const families = await store.overflowFamilies(overflow.fingerprint);
    const ledger = families.find((f) => f.service === 'payments')!;
    const basket = families.find((f) => f.service === 'checkout')!;
    expect(resolveService(catalog!, overflow.service)).toMatchObject({ known: true, service: { name: 'checkout' } });

    // A checkout approver holds the overflow card, but not the payments family on it.
    const refused = await openIncidentFromOverflow(deps(), { overflowIncidentId: overflow.id, fingerprint: ledger.fingerprint, userId: 'U_CHECKOUT' });
    expect(refused).toMatchObject({ ok: false, message: expect.stringContaining('on service payments, which this action also changes') });
    expect(await store.openIncidentOf(ledger.fingerprint)).toBeUndefined();

    const own = await openIncidentFromOverflow(deps(), { overflowIncidentId: overflow.id, fingerprint: basket.fingerprint, userId: 'U_CHECKOUT' });
    expect(own).toMatchObject({ ok: true });
    expect(await store.require(own.incidentId!)).toMatchObject({ service: 'checkout', title: 'basket lost' });
  });
});
