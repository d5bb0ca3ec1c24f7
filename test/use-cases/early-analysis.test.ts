/**
 * A long poll does not hold its new incidents back until its last event: the analyses of the
 * incidents a batch opened are enqueued once that batch is in Redis, each incident once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import { ingestEvents } from '../../src/use-cases/ingest-events.js';
import { buildEvent } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';

let ctx: Awaited<ReturnType<typeof createTestRedis>>;
beforeEach(async () => {
  ctx = await createTestRedis();
});
afterEach(async () => ctx.cleanup());

const now = Date.parse('2026-11-30T09:10:00.000Z');
const event = (n: number, message: string) => buildEvent({ id: `e${n}`, service: 'checkout', time: new Date(now).toISOString(), message, raw: message });

describe('analyses during a long ingest', () => {
  it('enqueues an incident opened by the first batch before the last batch is ingested, and once', async () => {
    const store = createIncidentStore(ctx.redis, ctx.prefix);
    // The second family first appears in the last batch.
    const events = Array.from({ length: 6_000 }, (_, n) => event(n, n < 5_000 ? 'payment gateway down' : 'ledger sync refused'));
    let ingested = 0;
    const enqueued: { ids: string[]; afterEvents: number }[] = [];
    await ingestEvents(events, {
      store, clock: () => new Date(now), enqueueAnalysis: async () => undefined,
      enqueueAnalyses: async (ids) => void enqueued.push({ ids: [...ids], afterEvents: ingested }),
      onIngested: () => void ingested++,
    });
    const incidents = await store.list();
    expect(incidents).toHaveLength(2);
    const first = incidents.find((i) => i.title === 'payment gateway down')!;
    const last = incidents.find((i) => i.title === 'ledger sync refused')!;
    const firstCall = enqueued.find((call) => call.ids.includes(first.id))!;
    expect(firstCall.afterEvents).toBeLessThan(events.length);
    expect(enqueued.flatMap((call) => call.ids).sort()).toEqual([first.id, last.id].sort());
    expect(await store.pendingAnalysis()).toEqual([]);
  });
});
