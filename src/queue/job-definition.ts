import type { z } from 'zod';

export const QUEUE_NAMES = { poll: 'poll', analyze: 'analyze', fix: 'apply-fix', refreshCard: 'refresh-card', sweep: 'sweep', watchChecks: 'watch-checks', verifyFix: 'verify-fix', forwardAudit: 'forward-audit', archiveAudit: 'archive-audit', deliverCard: 'deliver-card' } as const;
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
  /**
   * Does the job's work. A job that waits for something outside (a merge, a deploy) returns when
   * to look again, and with what payload: the same job is delayed, keeping its id, so one id
   * stands for the whole wait and a second enqueue of it is a no-op.
   */
  perform(data: T, job: { id: string; attemptsMade: number }): Promise<void | { lookAgainInMs: number; data: T }>;
  /** Called once, when the job has failed for good. */
  onFailed?(data: T, error: Error): Promise<void>;
}
