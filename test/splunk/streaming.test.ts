import { describe, expect, it } from 'vitest';
import type { ErrorEvent } from '../../src/domain/event.js';
import { ErrorCode, MedicError } from '../../src/domain/errors.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import { buildErrorRow, closedAfterEach, T0, toIngestInput, type SplunkFixture } from './support/fixtures.js';

const started = closedAfterEach();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function addRows(fixture: SplunkFixture, count: number): void {
  for (let n = 0; n < count; n += 1) fixture.server.rows.push(buildErrorRow({ n, indexTime: T0 - 600 + Math.floor(n / 100) }));
}

describe('a streamed Splunk poll', () => {
  it('reads no further while the consumer is busy, so Splunk waits instead of Medic buffering the export', async () => {
    const fx = await started.fixture({ source: { maxEventsPerPoll: 40_000 } });
    const total = 40_000;
    addRows(fx, total);
    const server = fx.server;
    const seen: number[] = [];
    let held: { during: number; after: number } | undefined;
    const result = await fx.source.pollStream!(undefined, async (events) => {
      seen.push(events.length);
      if (held) return;
      await sleep(250);
      const during = server.exported.rows;
      await sleep(250);
      held = { during, after: server.exported.rows };
    });
    expect(held!.after).toBe(held!.during);
    expect(held!.during).toBeLessThan(total / 2);
    expect(seen.reduce((a, b) => a + b, 0)).toBe(total);
    expect(seen.length).toBeGreaterThan(1);
    expect(result.events).toBe(total);
    expect(JSON.parse(result.checkpoint)).toMatchObject({ v: 1, indexTime: T0 - 600 + Math.floor((total - 1) / 100) });
  }, 60_000);

  it('hands events over before the export ends, and a stream cut short returns no checkpoint', async () => {
    const fx = await started.fixture({ client: { retries: 0, readTimeoutMs: 400 } });
    addRows(fx, 3_000);
    fx.server.fault({ kind: 'stall', afterRows: 1_000 });
    const handed: ErrorEvent[] = [];
    const error = await fx.source.pollStream!(undefined, async (events) => {
      handed.push(...events);
    }).catch((e: unknown) => e);
    expect(handed).toHaveLength(1_000);
    expect(error).toBeInstanceOf(MedicError);
    expect(error).toMatchObject({ code: ErrorCode.UpstreamUnavailable, transient: true });
  });

  it('stays exactly-once across a cut stream: what was ingested early is a duplicate when the poll is retried', async () => {
    const fx = await started.fixture({ client: { retries: 0, readTimeoutMs: 400 } });
    const redis = await started.redis();
    const store = createIncidentStore(redis.redis, redis.prefix);
    addRows(fx, 600);
    fx.server.fault({ kind: 'reset', afterRows: 400 });
    const statuses: string[] = [];
    const ingest = async (events: ErrorEvent[]) => {
      for (const r of await store.ingest(events.map(toIngestInput), Date.now())) statuses.push(r.status);
    };
    await expect(fx.source.pollStream!(undefined, ingest)).rejects.toMatchObject({ transient: true });
    // A reset loses what was still in flight: some of the 400 rows sent, never more.
    const early = statuses.length;
    expect(early).toBeGreaterThan(0);
    expect(early).toBeLessThanOrEqual(400);
    statuses.length = 0;
    // The checkpoint was never advanced: the next poll starts from the same place.
    const retried = await fx.source.pollStream!(undefined, ingest);
    expect(retried.events).toBe(600);
    expect(statuses.filter((s) => s === 'duplicate')).toHaveLength(early);
    expect(statuses.filter((s) => s !== 'duplicate')).toHaveLength(600 - early);
  });

  it('poll() returns what pollStream() hands over, with the same checkpoint', async () => {
    const fx = await started.fixture();
    addRows(fx, 1_500);
    const streamed: string[] = [];
    const a = await fx.source.pollStream!(undefined, async (events) => {
      streamed.push(...events.map((e) => e.id));
    });
    const b = await fx.source.poll(undefined);
    expect(b.events.map((e) => e.id)).toEqual(streamed);
    expect(b.checkpoint).toBe(a.checkpoint);
  });
});
