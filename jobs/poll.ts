import type { RedisClient } from '../src/adapters/redis/connect.js';
import { tryAcquireLease } from '../src/adapters/redis/leased-lock.js';
import { z } from 'zod';
import type { CheckpointStore } from '../src/adapters/redis/checkpoint-store.js';
import type { Logger } from '../src/observability/logger.js';
import type { LogSource } from '../src/ports/log-source.js';
import type { ErrorEvent } from '../src/domain/event.js';
import type { JobDefinition } from '../src/queue/job-definition.js';
import { ingestEvents, type IngestDeps } from '../src/use-cases/ingest-events.js';
import { createTemplateMiner, type TemplateMiner } from '../src/domain/templates/template-miner.js';
import type { IngestStatus } from '../src/ports/incident-store.js';
import type { TemplateSnapshotStore } from '../src/adapters/redis/template-snapshot-store.js';

export interface PollDeps extends IngestDeps {
  source: LogSource;
  checkpoints: CheckpointStore;
  redis: RedisClient;
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

export async function pollOnce(deps: PollDeps): Promise<({ polled: number } & Record<IngestStatus, number>) | undefined> {
  // A lease renewed while this worker lives: a worker killed mid-poll holds up the next poll for
  // one lease, not for minutes.
  const lease = await tryAcquireLease(deps.redis, `${deps.prefix}lock:poll:${deps.source.name}`);
  if (!lease) return undefined;
  try {
    const from = await deps.checkpoints.get(deps.source.name);
    // The poll lock makes this the only miner at work: its families and ids persist across polls and restarts.
    let miner: Promise<TemplateMiner> | undefined;
    const minerOf = deps.templates ? () => (miner ??= deps.templates!.load().then((snapshot) => createTemplateMiner({}, snapshot))) : undefined;
    const { polled, counts, checkpoint } = await readAndIngest(deps, from, minerOf);
    if (miner) await deps.templates?.save((await miner).snapshot());
    await deps.checkpoints.set(deps.source.name, checkpoint);
    await deps.store.pruneProcessed(deps.clock().getTime() - deps.dedupeRetentionMs);
    if (polled > 0) deps.logger.info({ source: deps.source.name, polled, ...counts }, 'polled');
    return { polled, ...counts };
  } finally {
    await lease.release().catch(() => undefined);
  }
}

/** Events handed to the ingest at once while a source streams: big enough for whole script batches. */
const STREAM_BATCH = 8_000;

/**
 * Reads the source and ingests what it reads. A streaming source (Splunk's export, files read a
 * slice at a time) is ingested while it still streams, a batch at a time: one batch is ingested
 * while the next is read, and the source waits while a second is ready (back-pressure). Batches
 * are ingested one after the other, in order; events ingested before a failed stream are
 * duplicates when the poll is retried.
 */
async function readAndIngest(deps: PollDeps, from: string | undefined, minerOf: (() => Promise<TemplateMiner>) | undefined) {
  const counts: Record<IngestStatus, number> = { created: 0, absorbed: 0, duplicate: 0, held: 0, overflow: 0 };
  // Called once more at the end even with no events: it finishes merges and enqueues analyses a crash left behind.
  const ingest = async (read: ErrorEvent[]) => {
    const events = deps.opens ? read.filter(deps.opens) : read;
    if (events.length < read.length) deps.logger.info({ source: deps.source.name, below: read.length - events.length }, 'events below their service\'s opening severity were not ingested');
    const miner = events.length > 0 ? await minerOf?.() : undefined;
    const added = await ingestEvents(events, { ...deps, miner });
    for (const status of Object.keys(counts) as IngestStatus[]) counts[status] += added[status];
  };
  if (!deps.source.pollStream) {
    const { events, checkpoint } = await deps.source.poll(from);
    await ingest(events);
    return { polled: events.length, counts, checkpoint };
  }
  let pending: ErrorEvent[] = [];
  let inFlight: Promise<void> = Promise.resolve();
  const { checkpoint, events } = await deps.source.pollStream(from, async (batch) => {
    for (const event of batch) pending.push(event);
    if (pending.length < STREAM_BATCH) return;
    const ready = pending;
    pending = [];
    await inFlight;
    inFlight = ingest(ready);
    // Awaited by the next batch or after the stream; a failure meanwhile must not go unhandled.
    inFlight.catch(() => undefined);
  }).catch(async (error: unknown) => {
    await inFlight.catch(() => undefined);
    throw error;
  });
  await inFlight;
  await ingest(pending);
  return { polled: events, counts, checkpoint };
}
