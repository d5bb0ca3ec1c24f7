import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import type { Severity } from '../../src/domain/event.js';
import { outgrows, severityWeight } from '../../src/domain/storm-policy.js';
import { ingestEvents, type IngestDeps } from '../../src/use-cases/ingest-events.js';
import { buildEvent } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';

let ctx: Awaited<ReturnType<typeof createTestRedis>>;
let store: IncidentStore;
let analyses: string[];
const now = Date.parse('2026-11-30T09:10:00.000Z');

beforeEach(async () => {
  ctx = await createTestRedis();
  store = createIncidentStore(ctx.redis, ctx.prefix);
  analyses = [];
});
afterEach(async () => ctx.cleanup());

const deps = (): IngestDeps => ({
  store, clock: () => new Date(now), enqueueAnalysis: async (id) => void analyses.push(id),
  storm: { open: { minEvents: 1, windowS: 300 }, rules: {}, maxNewPerHour: 50, maxNewPerServiceHour: 2 },
});
let seq = 0;
const word = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
const event = (family: number, severity: Severity = 'error') =>
  buildEvent({ id: `e${++seq}`, service: 'checkout', severity, time: new Date(now).toISOString(), message: `${word[family]} pipeline broke`, raw: `${word[family]} pipeline broke` });
const many = (family: number, n: number, severity?: Severity) => Array.from({ length: n }, () => event(family, severity));

describe('choosing the capped incidents by volume', () => {
  it('promotes a suppressed family that outgrows the smallest capped incident: own incident, analysis, counts moved', async () => {
    await ingestEvents([...many(0, 5), ...many(1, 1)], deps());
    expect(await ingestEvents(many(2, 1), deps())).toMatchObject({ overflow: 1 });
    const overflow = (await store.list()).find((i) => i.fingerprint.startsWith('overflow:'))!;
    // Its second event makes it heavier than bravo (1 event): it is promoted out of the overflow.
    expect(await ingestEvents(many(2, 1), deps())).toMatchObject({ created: 1 });
    const charlie = (await store.list()).find((i) => i.title.startsWith('charlie'))!;
    expect(charlie).toMatchObject({ promotedFrom: overflow.id, state: 'new' });
    expect(analyses).toContain(charlie.id);
    expect((await store.stats(charlie.id))?.count).toBe(2);
    expect((await store.stats(overflow.id))?.count).toBe(0);
    expect(await ingestEvents(many(2, 3), deps())).toMatchObject({ absorbed: 3 });

    // bravo gave up its place in the ranking: the next family must outgrow alpha (5), charlie (5).
    expect(await ingestEvents(many(3, 5), deps())).toMatchObject({ overflow: 5 });
    expect(await ingestEvents(many(3, 1), deps())).toMatchObject({ created: 1 });
    expect((await store.list()).filter((i) => !i.fingerprint.startsWith('overflow:'))).toHaveLength(4);
  });

  it('weighs a critical event above an error', async () => {
    expect(severityWeight('critical')).toBeGreaterThan(severityWeight('error'));
    expect(outgrows(2, 1)).toBe(true);
    expect(outgrows(1, 1)).toBe(false);
    expect(outgrows(5, undefined)).toBe(false);
    await ingestEvents([...many(0, 3), ...many(1, 3)], deps());
    // One critical event (weight 4) outweighs three errors at once.
    expect(await ingestEvents(many(2, 1, 'critical'), deps())).toMatchObject({ overflow: 1 });
    expect(await ingestEvents(many(2, 1, 'critical'), deps())).toMatchObject({ created: 1 });
  });
});
