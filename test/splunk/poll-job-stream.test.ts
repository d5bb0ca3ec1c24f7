import { describe, expect, it } from 'vitest';
import { pollOnce, type PollDeps } from '../../jobs/poll.js';
import { createCheckpointStore } from '../../src/adapters/redis/checkpoint-store.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import { createTemplateSnapshotStore } from '../../src/adapters/redis/template-snapshot-store.js';
import { createLogger } from '../../src/observability/logger.js';
import { buildErrorRow, closedAfterEach, T0 } from './support/fixtures.js';

const started = closedAfterEach();

describe('the poll job on a streaming source', () => {
  it('ingests while the export still streams, then advances the checkpoint once, and a second poll counts nothing twice', async () => {
    const fx = await started.fixture({ source: { maxEventsPerPoll: 40_000 } });
    const redis = await started.redis();
    const total = 30_000;
    for (let n = 0; n < total; n += 1) fx.server.rows.push(buildErrorRow({ n, indexTime: T0 - 600 + Math.floor(n / 300), txn: `txn-${n}` }));
    const store = createIncidentStore(redis.redis, redis.prefix);
    const exportedAtIngest: number[] = [];
    const server = fx.server;
    const analyses: string[] = [];
    const deps: PollDeps = {
      store: { ...store, ingest: (inputs, now, options) => (exportedAtIngest.push(server.exported.rows), store.ingest(inputs, now, options)) },
      source: fx.source, checkpoints: createCheckpointStore(redis.redis, redis.prefix), templates: createTemplateSnapshotStore(redis.redis, redis.prefix),
      redis: redis.redis, prefix: redis.prefix, logger: createLogger({ level: 'silent' }), clock: () => new Date(T0 * 1000), dedupeRetentionMs: 86_400_000,
      enqueueAnalysis: async (id) => void analyses.push(id),
    };
    const first = await pollOnce(deps);
    expect(first).toMatchObject({ polled: total });
    expect(first!.created + first!.absorbed).toBe(total);
    // The first batch went to Redis before Splunk had sent the whole export.
    expect(exportedAtIngest[0]).toBeLessThan(total);
    expect(new Set(analyses).size).toBe(first!.created);
    expect(await createCheckpointStore(redis.redis, redis.prefix).get(fx.source.name)).toBeDefined();
    // Whatever the overlap hands over again is a duplicate: nothing is counted twice.
    const second = await pollOnce(deps);
    expect(second).toMatchObject({ created: 0, absorbed: 0, duplicate: second!.polled });
  }, 60_000);
});
