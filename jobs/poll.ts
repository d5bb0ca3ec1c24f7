import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { CheckpointStore } from '../src/adapters/redis/checkpoint-store.js';
import type { Logger } from '../src/observability/logger.js';
import type { LogSource } from '../src/ports/log-source.js';
import type { ErrorEvent } from '../src/domain/event.js';
import type { JobDefinition } from '../src/queue/job-definition.js';
import { ingestEvents, type IngestDeps } from '../src/use-cases/ingest-events.js';
import { createTemplateMiner } from '../src/domain/templates/template-miner.js';
import type { TemplateSnapshotStore } from '../src/adapters/redis/template-snapshot-store.js';

export interface PollDeps extends IngestDeps {
  source: LogSource;
  checkpoints: CheckpointStore;
  redis: Redis;
  prefix: string;
  logger: Logger;
  /** Where the template miner's state persists between polls. */
  templates?: TemplateSnapshotStore;
  /** Processed-event ids older than this are forgotten (the overlap window is far shorter). */
  dedupeRetentionMs: number;
  /** Whether an event may open an incident (the service catalog's `open.min_severity`); absent: all. */
  opens?: (event: ErrorEvent) => boolean;
}

const PollPayload = z.object({}).passthrough();
const LOCK_MS = 120_000;

/**
 * One poll of the log source. The checkpoint advances only after the events are recorded in
 * Redis; a failed poll leaves it where it was, and the next poll re-reads (dedupe drops repeats).
 * A lock keeps two workers from polling at once when a slow poll overlaps the next tick.
 */
export function createPollJob(deps: PollDeps): JobDefinition<z.infer<typeof PollPayload>> {
  return {
    queue: 'poll',
    schema: PollPayload,
    attempts: 1,
    backoffMs: 1_000,
    concurrency: 1,
    async perform() {
      await pollOnce(deps);
    },
  };
}

export async function pollOnce(deps: PollDeps): Promise<{ polled: number; created: number; absorbed: number; duplicate: number } | undefined> {
  const lockKey = `${deps.prefix}lock:poll:${deps.source.name}`;
  const token = randomUUID();
  if ((await deps.redis.set(lockKey, token, 'PX', LOCK_MS, 'NX')) !== 'OK') return undefined;
  try {
    const polled = await deps.source.poll(await deps.checkpoints.get(deps.source.name));
    const { checkpoint } = polled;
    const events = deps.opens ? polled.events.filter(deps.opens) : polled.events;
    if (events.length < polled.events.length) deps.logger.info({ source: deps.source.name, below: polled.events.length - events.length }, 'events below their service\'s opening severity were not ingested');
    // The poll lock makes this the only miner at work: its families and ids persist across polls and restarts.
    const miner = events.length > 0 && deps.templates ? createTemplateMiner({}, await deps.templates.load()) : undefined;
    const counts = await ingestEvents(events, { ...deps, miner });
    if (miner) await deps.templates?.save(miner.snapshot());
    await deps.checkpoints.set(deps.source.name, checkpoint);
    await deps.store.pruneProcessed(deps.clock().getTime() - deps.dedupeRetentionMs);
    if (events.length > 0) deps.logger.info({ source: deps.source.name, polled: events.length, ...counts }, 'polled');
    return { polled: events.length, ...counts };
  } finally {
    // Release only our own lock (a slow poll may have lost it to the expiry).
    await deps.redis.eval("if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0", 1, lockKey, token);
  }
}
