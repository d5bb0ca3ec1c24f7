import { DelayedError, UnrecoverableError, Worker, type ConnectionOptions } from 'bullmq';
import { isMedicError } from '../domain/errors.js';
import type { Logger } from '../observability/logger.js';
import type { JobDefinition } from './job-definition.js';
import { bullPrefix } from './queues.js';

export interface WorkerOptions {
  connection: ConnectionOptions;
  redisPrefix: string;
  lockDurationMs: number;
  logger: Logger;
}

/** Runs one job definition on its queue, turning policy failures into UnrecoverableError. */
export function startWorker<T>(definition: JobDefinition<T>, options: WorkerOptions): Worker {
  const log = options.logger.child({ queue: definition.queue });
  const worker = new Worker(
    definition.queue,
    async (job, token) => {
      const parsed = definition.schema.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError(`Invalid ${definition.queue} job payload: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
      let again: Awaited<ReturnType<typeof definition.perform>>;
      try {
        again = await definition.perform(parsed.data, { id: job.id ?? '', attemptsMade: job.attemptsMade });
      } catch (error) {
        if (isMedicError(error) && !error.transient) throw new UnrecoverableError(`${error.code}: ${error.message}`);
        throw error;
      }
      if (again) {
        // The same job waits again (BullMQ's step jobs): its id, and so its dedup, last the whole wait.
        await job.updateData(again.data);
        await job.moveToDelayed(Date.now() + again.lookAgainInMs, token);
        throw new DelayedError();
      }
    },
    {
      connection: options.connection,
      prefix: bullPrefix(options.redisPrefix),
      concurrency: definition.concurrency,
      lockDuration: options.lockDurationMs,
      stalledInterval: Math.max(500, Math.floor(options.lockDurationMs / 2)),
      maxStalledCount: 5,
      settings: {
        backoffStrategy: (attempts: number, _type?: string, error?: Error) =>
          definition.retryDelayMs && error ? definition.retryDelayMs(attempts, error) : Math.min(60_000, 2 ** attempts * definition.backoffMs),
      },
    },
  );
  worker.on('failed', (job, error) => {
    if (!job) return;
    const final = error instanceof UnrecoverableError || error.name === 'UnrecoverableError' || job.attemptsMade >= definition.attempts;
    log.warn({ jobId: job.id, attempt: job.attemptsMade, final, err: error }, 'job failed');
    if (final && definition.onFailed) {
      const parsed = definition.schema.safeParse(job.data);
      if (parsed.success) definition.onFailed(parsed.data, error).catch((e: unknown) => log.error({ jobId: job.id, err: e }, 'onFailed failed'));
    }
  });
  worker.on('error', (error) => log.error({ err: error }, 'worker error'));
  return worker;
}
