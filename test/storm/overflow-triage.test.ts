import { describe, expect, it } from 'vitest';
import { refreshCard } from '../../jobs/refresh-card.js';
import { createAuditLog } from '../../src/adapters/redis/audit-log.js';
import { triageOverflow } from '../../src/analysts/overflow-triage.js';
import { ingestEvents } from '../../src/use-cases/ingest-events.js';
import { useOverflowStore } from '../support/overflow-store.js';

describe('the offline triage of an overflow incident', () => {
  const family = (service: string, title: string, count: number, weight = 1) => ({ fingerprint: `${service}:${title}`, service, title, count, volume: count * weight });

  it('names the family most likely at the root by severity-weighted volume, its services and the next families', () => {
    const triage = triageOverflow([family('search', 'index shard unavailable', 30), family('payments', 'card vault unreachable', 10, 4), family('billing', 'ledger sync refused', 5)])!;
    expect(triage.top.service).toBe('payments');
    expect(triage.rca.rootCause).toMatch(/^Most likely the "card vault unreachable" failure in payments: 10 of the overflow's 45 events, 53% of its severity-weighted volume/);
    expect(triage.rca.severity).toBe('critical');
    expect(triage.rca.summary).toBe('Storm overflow: 3 families from 3 services (billing, payments, search), 45 events.');
    expect(triage.rca.contributingFactors).toEqual(['index shard unavailable — 30 events in search', 'ledger sync refused — 5 events in billing']);
    expect(triage.rca.confidence).toBeLessThanOrEqual(0.4);
    expect(triage.recommendation).toMatchObject({ kind: 'investigate', summary: expect.stringContaining('Open incident for "card vault unreachable" (payments)') as string });
  });

  it('adds up one message seen in several services, and has nothing to say about an empty overflow', () => {
    const triage = triageOverflow([family('search', 'index shard unavailable', 8), family('api', 'upstream timeout', 6), family('web', 'upstream timeout', 6)])!;
    expect(triage.rca.rootCause).toContain('"upstream timeout" failure in 2 services (api, web): 12 of the overflow\'s 20 events, 60%');
    expect(triageOverflow([])).toBeUndefined();
  });
});

describe('the overflow card, triaged', () => {
  const o = useOverflowStore();
  const { deps, event } = o;

  it('shows its most likely root cause and next step on the card, and audits the family it names each time that changes', async () => {
    // A heavy first incident, so nothing in the overflow outgrows it and is promoted.
    await ingestEvents(Array.from({ length: 200 }, () => event('checkout', 'payment gateway down')), deps());
    await ingestEvents([...Array.from({ length: 6 }, () => event('search', 'index shard unavailable')), event('billing', 'ledger sync refused')], deps());
    const overflow = (await o.store().list()).find((i) => i.fingerprint.startsWith('overflow:'))!;
    const chat = o.chat();
    const refresh = () => refreshCard(overflow.id, o.refreshDeps(chat));

    const first = (await refresh())!;
    expect(first.rca?.rootCause).toMatch(/^Most likely the "index shard unavailable" failure in search: 6 of the overflow's 7 events/);
    expect(first.provenance.rca?.analyst).toBe('offline');
    expect(first.state).toBe('reported');
    const transcript = async () => (await o.transcript()).map((r) => JSON.stringify(r.blocks));
    const card = (await transcript()).at(-1)!;
    expect(card).toContain('*Root cause* Most likely the \\"index shard unavailable\\" failure in search');
    expect(card).toContain('*Next step* (investigate, risk low) Open incident for');
    expect(card).toContain('index shard unavailable* — 6 events'); // the family list stays

    await ingestEvents([event('search', 'index shard unavailable')], deps());
    expect((await refresh())!.rca?.rootCause).toContain('7 of the overflow\'s 8 events');
    await ingestEvents(Array.from({ length: 4 }, () => event('billing', 'ledger sync refused', 'critical')), deps());
    expect((await refresh())!.rca?.rootCause).toMatch(/^Most likely the "ledger sync refused" failure in billing/);

    const trail = (await createAuditLog(o.redis().redis, o.redis().prefix).list({ incidentId: overflow.id })).filter((a) => a.action === 'incident.overflow-triage');
    expect(trail.map((a) => a.details?.service)).toEqual(['search', 'billing']);
  });
});
