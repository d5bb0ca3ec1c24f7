/**
 * A streaming poll reads the next batch while the last one is ingested, never ingests two at
 * once or out of order, and a failed ingest fails the poll: nothing unhandled, no checkpoint.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pollOnce, type PollDeps } from '../../jobs/poll.js';
import { createCheckpointStore } from '../../src/adapters/redis/checkpoint-store.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import type { ErrorEvent } from '../../src/domain/event.js';
import { createLogger } from '../../src/observability/logger.js';
import type { LogSource } from '../../src/ports/log-source.js';
import { buildEvent } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';

let ctx: Awaited<ReturnType<typeof createTestRedis>>;
beforeEach(async () => {
  ctx = await createTestRedis();
});
afterEach(async () => ctx.cleanup());

const now = Date.parse('2026-11-30T09:10:00.000Z');
const BATCHES = 4;
const PER_BATCH = 8_000;

/** A source that streams BATCHES batches and notes when it hands each over. */
function streamingSource(log: string[]): LogSource {
  return {
    name: 'stream-test',
    async poll() {
      throw new Error('the poll job streams this source');
    },
    async pollStream(_checkpoint: string | undefined, onEvents: (events: ErrorEvent[]) => Promise<void>) {
      for (let b = 0; b < BATCHES; b++) {
        log.push(`read ${b}`);
        const events: ErrorEvent[] = Array.from({ length: PER_BATCH }, (_, i) => buildEvent({ id: `e-${b}-${i}`, service: 'shop', time: new Date(now).toISOString(), message: 'payment gateway down' }));
        await onEvents(events);
      }
      return { checkpoint: 'end', events: BATCHES * PER_BATCH };
    },
    async window() {
      return [];
    },
  } as unknown as LogSource;
}

function deps(source: LogSource, ingest: PollDeps['store']['ingest']): PollDeps {
  const store = createIncidentStore(ctx.redis, ctx.prefix);
  return {
    store: { ...store, ingest }, source, checkpoints: createCheckpointStore(ctx.redis, ctx.prefix), redis: ctx.redis, prefix: ctx.prefix,
    logger: createLogger({ level: 'silent' }), clock: () => new Date(now), dedupeRetentionMs: 86_400_000, enqueueAnalysis: async () => undefined,
  };
}

describe('a streaming poll as a pipeline', () => {
  it('reads on while a batch is ingested, one batch at a time and in order', async () => {
    const log: string[] = [];
    const store = createIncidentStore(ctx.redis, ctx.prefix);
    let active = 0;
    let most = 0;
    const result = await pollOnce(deps(streamingSource(log), async (inputs, nowMs, options) => {
      active++;
      most = Math.max(most, active);
      log.push(`ingest ${inputs[0]!.event.id.split('-')[1]}`);
      await new Promise((resolve) => setTimeout(resolve, 30));
      try {
        return await store.ingest(inputs, nowMs, options);
      } finally {
        active--;
      }
    }));
    expect(result).toMatchObject({ polled: BATCHES * PER_BATCH, created: 1, absorbed: BATCHES * PER_BATCH - 1 });
    expect(most).toBe(1);
    const ingested = log.filter((l) => l.startsWith('ingest')).map((l) => Number(l.split(' ')[1]));
    expect(ingested).toEqual([...ingested].sort((a, b) => a - b));
    // The second batch was read before the first one's ingest ended.
    expect(log.indexOf('read 1')).toBeLessThan(log.lastIndexOf('ingest 0'));
    expect(await createCheckpointStore(ctx.redis, ctx.prefix).get('stream-test')).toBe('end');
  });

  it('fails the poll when a batch cannot be ingested, and keeps the checkpoint where it was', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let calls = 0;
      const store = createIncidentStore(ctx.redis, ctx.prefix);
      const failing = deps(streamingSource([]), async (inputs, nowMs, options) => {
        if (calls++ === 0) throw new Error('Redis refused an ingest: OOM');
        return store.ingest(inputs, nowMs, options);
      });
      await expect(pollOnce(failing)).rejects.toThrow(/OOM/);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
      expect(await createCheckpointStore(ctx.redis, ctx.prefix).get('stream-test')).toBeUndefined();
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
