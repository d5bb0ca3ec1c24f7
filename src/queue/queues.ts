import { createHash } from 'node:crypto';
import { Queue, type ConnectionOptions } from 'bullmq';
import { QUEUE_NAMES, type QueueName } from './job-definition.js';

export interface Queues {
  poll: Queue;
  analyze: Queue;
  fix: Queue;
  refreshCard: Queue;
  sweep: Queue;
  watchChecks: Queue;
  verifyFix: Queue;
  forwardAudit: Queue;
  archiveAudit: Queue;
  deliverCard: Queue;
  /**
   * One delivery job per rendered version: a job finding its render already sent costs no Slack
   * call, so repeats coalesce. Posts and final states outrank progress in the queue.
   */
  enqueueCardDelivery(incidentId: string, version: number, priority: 'final' | 'progress', attempts: number, occasion?: string): Promise<void>;
  /** The delivery that posts a waiting thread reply (one job per reply key; it posts the card first when needed). */
  enqueueReplyDelivery(incidentId: string, replyKey: string, attempts: number): Promise<void>;
  enqueueAnalysis(incidentId: string, round: number): Promise<void>;
  /** First-round analyses of many incidents in one round trip (a storm's new incidents). */
  enqueueAnalyses(incidentIds: readonly string[]): Promise<void>;
  /** `round` is the incident's analysis round: approving the same proposal again after a re-run is a new job. */
  enqueueFix(incidentId: string, proposalHash: string, round: number): Promise<void>;
  /** At most one card refresh per incident every `cardRefreshS` seconds; it runs at the end of the period. */
  enqueueCardRefresh(incidentId: string): Promise<void>;
  /** The same refresh for many incidents in one round trip. */
  enqueueCardRefreshes(incidentIds: readonly string[]): Promise<void>;
  /** Looks at a fix PR's check runs after `delayMs`; `attempt` numbers the look, so each is one job. */
  enqueueChecksWatch(incidentId: string, attempt: number, delayMs: number): Promise<void>;
  /** The one job that follows a round's pushed fix to its verdict (merge, deploy, quiet window); a second add is a no-op. */
  enqueueVerify(incidentId: string, round: number, delayMs: number): Promise<void>;
  /** For the sweep: the verification job of a fix still awaited exists and can run. */
  resumeVerify(incidentId: string, round: number): Promise<boolean>;
  /**
   * For the sweep: makes sure the job of a stuck incident exists and can run. Waiting, delayed or
   * active jobs are left alone (BullMQ hands a dead worker's active job on once its lock lapses);
   * a missing job is added, and a finished one (completed or failed for good while the incident
   * still waits on it) is removed and added again. Returns whether it (re)enqueued.
   */
  resumeAnalysis(incidentId: string, round: number): Promise<boolean>;
  resumeFix(incidentId: string, proposalHash: string, round: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * BullMQ keys live under Medic's own prefix, so one Redis serves several deployments or tests.
 * BullMQ's scripts touch several keys of a queue at once; the prefix's hash tag (`{medic}:bull`)
 * keeps them, and Medic's own keys, in one Redis Cluster slot.
 */
export function bullPrefix(redisPrefix: string): string {
  return `${redisPrefix}bull`;
}

const analysisJobId = (incidentId: string, round: number) => (round === 0 ? incidentId : `${incidentId}-r${round}`);
const verifyJobId = (incidentId: string, round: number) => `${incidentId}-verify-r${round}`;
const fixJobId = (incidentId: string, proposalHash: string, round: number) => `${incidentId}-r${round}-${proposalHash.slice(0, 16)}`;

/** Adds the job unless one that can still run holds its id; a finished one is cleared first. */
async function resume(queue: Queue, jobId: string, add: () => Promise<void>): Promise<boolean> {
  const job = await queue.getJob(jobId);
  if (job) {
    const state = await job.getState();
    if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return false;
    await job.remove().catch(() => undefined); // a concurrent sweep removed it first: the add below is still right
  }
  await add();
  return true;
}

const KEEP = { removeOnComplete: { age: 7 * 86_400, count: 10_000 }, removeOnFail: { age: 30 * 86_400 } };

export function createQueues(connection: ConnectionOptions, redisPrefix: string, options: { cardRefreshS?: number } = {}): Queues {
  const make = (name: QueueName) => {
    const queue = new Queue(name, { connection, prefix: bullPrefix(redisPrefix), defaultJobOptions: { ...KEEP, attempts: 5, backoff: { type: 'exponential', delay: 2_000 } } });
    queue.on('error', () => undefined); // connection errors surface through the worker and /readyz
    return queue;
  };
  const poll = make(QUEUE_NAMES.poll);
  const analyze = make(QUEUE_NAMES.analyze);
  const fix = make(QUEUE_NAMES.fix);
  const refreshCard = make(QUEUE_NAMES.refreshCard);
  const sweep = make(QUEUE_NAMES.sweep);
  const watchChecks = make(QUEUE_NAMES.watchChecks);
  const verifyFix = make(QUEUE_NAMES.verifyFix);
  const forwardAudit = make(QUEUE_NAMES.forwardAudit);
  const refreshOptions = (incidentId: string) => {
    const ms = (options.cardRefreshS ?? 30) * 1000;
    return { delay: ms, deduplication: { id: `refresh-${incidentId}`, ttl: ms }, attempts: 3 };
  };
  const archiveAudit = make(QUEUE_NAMES.archiveAudit);
  const deliverCard = make(QUEUE_NAMES.deliverCard);
  const queues: Queues = {
    deliverCard,
    // `occasion` names a delivery the record's version does not capture (a new event count).
    async enqueueCardDelivery(incidentId, version, priority, attempts, occasion) {
      await deliverCard.add('deliver-card', { incidentId, priority }, {
        jobId: `${incidentId}-v${version}-${priority}${occasion ? `-${occasion}` : ''}`,
        priority: priority === 'final' ? 1 : 10,
        // Progress is never retried: the next render supersedes it.
        attempts: priority === 'final' ? attempts : 1,
        backoff: { type: 'custom' },
        removeOnComplete: { age: 86_400, count: 10_000 },
      });
    },
    async enqueueReplyDelivery(incidentId, replyKey, attempts) {
      const id = createHash('sha256').update(replyKey).digest('hex').slice(0, 16);
      await deliverCard.add('deliver-card', { incidentId, priority: 'final' }, {
        jobId: `${incidentId}-reply-${id}`, priority: 1, attempts, backoff: { type: 'custom' }, removeOnComplete: { age: 86_400, count: 10_000 },
      });
    },
    poll,
    analyze,
    fix,
    refreshCard,
    sweep,
    watchChecks,
    verifyFix,
    forwardAudit,
    archiveAudit,
    // jobId = incident id (a re-run adds the round): a second enqueue of the same work is a no-op.
    async enqueueAnalysis(incidentId, round) {
      await analyze.add('analyze', { incidentId }, { jobId: analysisJobId(incidentId, round) });
    },
    async enqueueAnalyses(incidentIds) {
      if (incidentIds.length > 0) await analyze.addBulk(incidentIds.map((incidentId) => ({ name: 'analyze', data: { incidentId }, opts: { jobId: analysisJobId(incidentId, 0) } })));
    },
    // A completed job is kept for a week and its jobId blocks a new one, so the round is part of the
    // key: a retry of one approval stays a no-op, a fresh approval after `/medic fix` runs.
    async enqueueFix(incidentId, proposalHash, round) {
      await fix.add('apply-fix', { incidentId, proposalHash }, { jobId: fixJobId(incidentId, proposalHash, round) });
    },
    // Throttle: the first absorbed event of a period adds a job delayed by the period; every other
    // enqueue in that period is dropped by the dedup key (same ttl). The delayed job reads the count
    // when it runs, so the last event of a burst is always shown, and refreshes stay a period apart.
    async enqueueCardRefresh(incidentId) {
      await refreshCard.add('refresh-card', { incidentId }, refreshOptions(incidentId));
    },
    async enqueueCardRefreshes(incidentIds) {
      if (incidentIds.length > 0) await refreshCard.addBulk(incidentIds.map((incidentId) => ({ name: 'refresh-card', data: { incidentId }, opts: refreshOptions(incidentId) })));
    },
    async enqueueChecksWatch(incidentId, attempt, delayMs) {
      await watchChecks.add('watch-checks', { incidentId, attempt }, { jobId: `${incidentId}-checks-${attempt}`, delay: delayMs, attempts: 3 });
    },
    async enqueueVerify(incidentId, round, delayMs) {
      await verifyFix.add('verify-fix', { incidentId, round, attempt: 0 }, { jobId: verifyJobId(incidentId, round), delay: delayMs, attempts: 5 });
    },
    resumeVerify: (incidentId, round) => resume(verifyFix, verifyJobId(incidentId, round), () => queues.enqueueVerify(incidentId, round, 0)),
    resumeAnalysis: (incidentId, round) => resume(analyze, analysisJobId(incidentId, round), () => queues.enqueueAnalysis(incidentId, round)),
    resumeFix: (incidentId, proposalHash, round) => resume(fix, fixJobId(incidentId, proposalHash, round), () => queues.enqueueFix(incidentId, proposalHash, round)),
    async close() {
      await Promise.all([poll.close(), analyze.close(), fix.close(), refreshCard.close(), sweep.close(), watchChecks.close(), verifyFix.close(), forwardAudit.close(), archiveAudit.close(), deliverCard.close()]);
    },
  };
  return queues;
}
