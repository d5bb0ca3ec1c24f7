import type { z } from 'zod';

export const QUEUE_NAMES = { poll: 'poll', analyze: 'analyze', fix: 'apply-fix', refreshCard: 'refresh-card', sweep: 'sweep', watchChecks: 'watch-checks', forwardAudit: 'forward-audit', archiveAudit: 'archive-audit', deliverCard: 'deliver-card' } as const;
export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

/**
 * Every job looks alike: a queue, a payload schema, attempts and backoff, `perform` and
 * `onFailed`. Validation and policy failures are unrecoverable; transient ones retry.
 */
export interface JobDefinition<T> {
  queue: QueueName;
  schema: z.ZodType<T>;
  attempts: number;
  backoffMs: number;
  /** A job's own retry schedule (jobs enqueued with `backoff: { type: 'custom' }`); exponential from backoffMs otherwise. */
  retryDelayMs?(attemptsMade: number, error: Error): number;
  concurrency: number;
  perform(data: T, job: { id: string; attemptsMade: number }): Promise<void>;
  /** Called once, when the job has failed for good. */
  onFailed?(data: T, error: Error): Promise<void>;
}
