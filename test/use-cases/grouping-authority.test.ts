/**
 * Grouping decisions stay inside a service: a merge needs authority on both incidents, a split
 * divides only its own service's family, and opening a family from the overflow card needs
 * authority on that family's service — not only on the overflow incident's.
 */
import { describe, expect, it } from 'vitest';
import { assembleCatalog } from '../../src/domain/catalog/assemble-catalog.js';
import { parseCatalogFile } from '../../src/domain/catalog/parse-catalog-file.js';
import { resolveService } from '../../src/domain/catalog/resolve-service.js';
import { createCatalogAuthority } from '../../src/gateway/authority/catalog-authority.js';
import { mergeIncidents, openIncidentFromOverflow, splitFamily } from '../../src/use-cases/open-incident.js';
import { useGroupingWorld } from '../support/incident-store-world.js';

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

const world = useGroupingWorld({
  authority: (store) => createCatalogAuthority({
    approvers: [], elevatedApprovers: [], readers: [],
    routeOf: async (id) => resolveService(catalog!, (await store.get(id))?.service ?? ''),
    routeOfService: (service) => resolveService(catalog!, service),
  }),
});
const { event, ingest, deps } = world;
const incidentOf = async (service: string, title: string) => (await world.store().list()).find((i) => i.service === service && i.title === title)!;

describe('grouping decisions, per service', () => {
  it('refuses a merge whose survivor belongs to a service the caller does not approve', async () => {
    await ingest([event('checkout', 'cart total mismatch'), event('payments', 'ledger write refused')]);
    const cart = await incidentOf('checkout', 'cart total mismatch');
    const ledger = await incidentOf('payments', 'ledger write refused');

    const intoOther = await mergeIncidents(deps(), { incidentId: cart.id, intoIncidentId: ledger.id, userId: 'U_CHECKOUT' });
    expect(intoOther).toMatchObject({ ok: false, message: expect.stringContaining(`on ${ledger.id}, which this action also changes`) });
    const fromOther = await mergeIncidents(deps(), { incidentId: ledger.id, intoIncidentId: cart.id, userId: 'U_CHECKOUT' });
    expect(fromOther.ok).toBe(false);
    expect(await world.store().require(cart.id)).toMatchObject({ state: 'new' });
    expect((await world.store().require(ledger.id)).mergedInto).toBeUndefined();
  });

  it("divides only the splitting service's family, even where another service mines the same one", async () => {
    await ingest([event('checkout', 'quota exceeded', { tenant: 'acme' }), event('payments', 'quota exceeded', { tenant: 'acme' })]);
    const checkout = await incidentOf('checkout', 'quota exceeded');
    const payments = await incidentOf('payments', 'quota exceeded');
    expect(checkout.family?.groupId).toBe(payments.family?.groupId);

    expect(await splitFamily(deps(), { incidentId: checkout.id, field: 'tenant', userId: 'U_CHECKOUT' })).toMatchObject({ ok: true });
    await ingest([event('checkout', 'quota exceeded', { tenant: 'globex' }), event('payments', 'quota exceeded', { tenant: 'globex' }), event('payments', 'quota exceeded', { tenant: 'initech' })]);
    const titles = (service: string) => world.store().list().then((all) => all.filter((i) => i.service === service).map((i) => i.title).sort());
    expect(await titles('checkout')).toEqual(['quota exceeded', 'quota exceeded [tenant=globex]']);
    expect(await titles('payments')).toEqual(['quota exceeded']);
    expect((await world.store().stats(payments.id))?.count).toBe(3);
  });

  it("opens a family from the overflow card only for an approver of that family's service", async () => {
    const storm = { open: { minEvents: 1, windowS: 300 }, rules: {}, maxNewPerHour: 1, maxNewPerServiceHour: 20 };
    await ingest([event('checkout', 'payment gateway down')], storm);
    await ingest([event('payments', 'ledger sync refused'), event('checkout', 'basket lost')], storm);
    const overflow = (await world.store().list()).find((i) => i.fingerprint.startsWith('overflow:'))!;
    const families = await world.store().overflowFamilies(overflow.fingerprint);
    const ledger = families.find((f) => f.service === 'payments')!;
    const basket = families.find((f) => f.service === 'checkout')!;
    expect(resolveService(catalog!, overflow.service)).toMatchObject({ known: true, service: { name: 'checkout' } });

    // A checkout approver holds the overflow card, but not the payments family on it.
    const refused = await openIncidentFromOverflow(deps(), { overflowIncidentId: overflow.id, fingerprint: ledger.fingerprint, userId: 'U_CHECKOUT' });
    expect(refused).toMatchObject({ ok: false, message: expect.stringContaining('on service payments, which this action also changes') });
    expect(await world.store().openIncidentOf(ledger.fingerprint)).toBeUndefined();

    const own = await openIncidentFromOverflow(deps(), { overflowIncidentId: overflow.id, fingerprint: basket.fingerprint, userId: 'U_CHECKOUT' });
    expect(own).toMatchObject({ ok: true });
    expect(await world.store().require(own.incidentId!)).toMatchObject({ service: 'checkout', title: 'basket lost' });
  });
});
