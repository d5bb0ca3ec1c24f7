import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import { hourOf, type StormSettings } from '../../src/domain/storm-policy.js';
import { ingestEvents, type IngestDeps } from '../../src/use-cases/ingest-events.js';
import { buildEvent } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';

let ctx: Awaited<ReturnType<typeof createTestRedis>>;
let store: IncidentStore;
let now: number;
let analyses: string[];
let refreshes: string[];

const STORM: StormSettings = { open: { minEvents: 1, windowS: 300 }, rules: { checkout: { minEvents: 3, windowS: 120 } }, maxNewPerHour: 50, maxNewPerServiceHour: 20, cardRefreshS: 30, quietPeriodS: 3600 };

beforeEach(async () => {
  ctx = await createTestRedis();
  store = createIncidentStore(ctx.redis, ctx.prefix);
  now = Date.parse('2026-11-30T09:10:00.000Z');
  analyses = [];
  refreshes = [];
});
afterEach(async () => ctx.cleanup());

function deps(storm: Partial<StormSettings> = {}): IngestDeps {
  return {
    store, clock: () => new Date(now), storm: { ...STORM, ...storm },
    enqueueAnalysis: async (id) => void analyses.push(id),
    enqueueCardRefresh: async (id) => void refreshes.push(id),
  };
}

let seq = 0;
const declined = (service = 'checkout') => buildEvent({ id: `e${++seq}`, service, time: new Date(now).toISOString(), message: `Payment declined for order ${1000 + seq}`, raw: `Payment declined for order ${1000 + seq}` });
const family = (i: number, service = `svc-${i}`) => buildEvent({ id: `f${i}-${++seq}`, service, time: new Date(now).toISOString(), message: `family ${'abcdefghijklmnopqrstuvwxyz'[i]} broke on ${seq}`, raw: `family ${'abcdefghijklmnopqrstuvwxyz'[i]} broke on ${seq}` });

describe('opening an incident from a family', () => {
  it('holds N-1 events, opens at the Nth with all of them counted, and analyses it once', async () => {
    expect(await ingestEvents([declined(), declined()], deps())).toMatchObject({ held: 2, created: 0 });
    expect(await store.list()).toEqual([]);
    expect(analyses).toEqual([]);
    expect(await ingestEvents([declined()], deps())).toMatchObject({ created: 1, held: 0 });
    const [incident] = await store.list();
    expect((await store.stats(incident!.id))?.count).toBe(3);
    expect(await store.recentEvents(incident!.id)).toHaveLength(3);
    expect(analyses).toEqual([incident!.id]);
    expect(await ingestEvents([declined()], deps())).toMatchObject({ absorbed: 1 });
    expect((await store.stats(incident!.id))?.count).toBe(4);
    expect(refreshes).toEqual([incident!.id]);
  });

  it('starts the count over when the window has passed', async () => {
    await ingestEvents([declined(), declined()], deps());
    now += 121_000;
    expect(await ingestEvents([declined(), declined()], deps())).toMatchObject({ held: 2, created: 0 });
    expect(await ingestEvents([declined()], deps())).toMatchObject({ created: 1 });
    const [incident] = await store.list();
    expect((await store.stats(incident!.id))?.count).toBe(3);
  });

  it('uses the global rule for services without one', async () => {
    expect(await ingestEvents([declined('search')], deps())).toMatchObject({ created: 1 });
  });

  it('never counts a repeated event twice while the family forms', async () => {
    const e = declined();
    expect(await ingestEvents([e, e, e], deps())).toMatchObject({ held: 1, duplicate: 2 });
  });
});

describe('caps on new incidents', () => {
  it('sends families past the hourly cap to one overflow incident, never analysed', async () => {
    const counts = await ingestEvents([0, 1, 2, 3, 4, 5].flatMap((i) => [family(i), family(i)]), deps({ maxNewPerHour: 3 }));
    // Every event counted into the overflow says so, not only the first of each family.
    expect(counts).toMatchObject({ created: 3, overflow: 6, absorbed: 3 });
    const incidents = await store.list();
    const overflow = incidents.filter((i) => i.fingerprint.startsWith('overflow:'));
    expect(overflow).toHaveLength(1);
    expect(overflow[0]).toMatchObject({ fingerprint: `overflow:${hourOf(now)}`, state: 'reported' });
    expect(await store.suppressedFamilies(overflow[0]!.fingerprint)).toBe(3);
    expect((await store.stats(overflow[0]!.id))?.count).toBe(6);
    expect(analyses).toHaveLength(3);
    expect(analyses).not.toContain(overflow[0]!.id);
    expect(refreshes).toContain(overflow[0]!.id);
  });

  it('caps each service on its own, and opens again in the next hour', async () => {
    await ingestEvents([0, 1, 2].map((i) => family(i, 'checkout-api')), deps({ maxNewPerServiceHour: 2 }));
    expect((await store.list()).filter((i) => i.service === 'checkout-api')).toHaveLength(2);
    expect(await ingestEvents([family(3, 'search')], deps({ maxNewPerServiceHour: 2 }))).toMatchObject({ created: 1 });
    now += 3_600_000;
    expect(await ingestEvents([family(2, 'checkout-api')], deps({ maxNewPerServiceHour: 2 }))).toMatchObject({ created: 1 });
  });
});

describe('recurrence', () => {
  it('opens a new incident linked to the released one', async () => {
    await ingestEvents([declined('search')], deps());
    const [first] = await store.list();
    await store.releaseFingerprint(first!);
    now += 7_200_000;
    expect(await ingestEvents([declined('search')], deps())).toMatchObject({ created: 1 });
    const second = (await store.list()).find((i) => i.id !== first!.id);
    expect(second).toMatchObject({ fingerprint: first!.fingerprint, previousIncidentId: first!.id, state: 'new' });
    expect((await store.stats(second!.id))?.count).toBe(1);
  });

  it('lists incidents by the time their last event was recorded', async () => {
    await ingestEvents([declined('search')], deps());
    const [incident] = await store.list();
    expect(await store.quietIncidents(now - 1)).toEqual([]);
    expect(await store.quietIncidents(now)).toEqual([{ id: incident!.id, lastEventMs: now }]);
    await store.releaseFingerprint(incident!);
    expect(await store.quietIncidents(now)).toEqual([]);
  });
});
