import type { RedisClient } from '../adapters/redis/connect.js';
import type { Worker } from 'bullmq';
import { createPollJob, type PollDeps } from '../../jobs/poll.js';
import { createAnalyzeJob } from '../../jobs/analyze.js';
import { createApplyFixJob } from '../../jobs/apply-fix.js';
import { createWatchChecksJob } from '../../jobs/watch-checks.js';
import { createVerifyFixJob } from '../../jobs/verify-fix.js';
import { createVerifyParts } from './verify-wiring.js';
import { postTimeline } from '../use-cases/post-timeline.js';
import { createForwardAuditJob } from '../../jobs/forward-audit.js';
import { createArchiveAuditJob } from '../../jobs/archive-audit.js';
import { createHecClient } from '../adapters/splunk/hec-client.js';
import { createRefreshCardJob } from '../../jobs/refresh-card.js';
import { createSweepJob } from '../../jobs/sweep.js';
import { createDeliverCardJob, type DeliverCardDeps } from '../../jobs/deliver-card.js';
import { createRedisCardDeliveryState } from '../adapters/redis/card-delivery-state.js';
import { createCardDeliveries } from './card-deliveries.js';
import { findStaleCards } from '../use-cases/stale-cards.js';
import { combineCardReadings, describeCardDelivery, type CardDeliveryReading } from './card-delivery-check.js';
import { createAuditLog } from '../adapters/redis/audit-log.js';
import { createCheckpointStore } from '../adapters/redis/checkpoint-store.js';
import { createTemplateSnapshotStore } from '../adapters/redis/template-snapshot-store.js';
import { createIncidentStore } from '../adapters/redis/incident-store.js';
import { createRedisFailureLinks } from '../adapters/redis/failure-links.js';
import { checkRedisReady } from '../adapters/redis/redis-readiness.js';
import { createClickFollowUpStream, startClickAnswerer, type ClickAnswerer } from '../adapters/redis/click-follow-up-stream.js';
import type { ClickFollowUps } from '../ports/click-follow-ups.js';
import { createRedisDeliveryClaims } from '../adapters/redis/delivery-claims.js';
import { answerClick, tellThroughChat } from '../use-cases/answer-click.js';
import type { IncidentStore } from '../ports/incident-store.js';
import type { Config } from '../config/schema.js';
import { stormSettingsFrom } from '../config/sections/storm.js';
import { IncidentState } from '../domain/incident.js';
import { findService, opensIncident } from '../domain/catalog/resolve-service.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { PipelineDeps } from '../pipeline/pipeline-deps.js';
import type { FixDeps } from '../pipeline/run-fix.js';
import type { AuditLog } from '../ports/audit.js';
import type { Checkable, ServiceCheck } from '../ports/service-check.js';
import { createQueues, type Queues } from '../queue/queues.js';
import { startWorker } from '../queue/start-worker.js';
import { recordFixApproval } from '../gateway/effect-gate/fix-approval.js';
import { createDecisionAnnouncer } from '../use-cases/announce-decision.js';
import { createIncidentCommands } from '../use-cases/create-incident-commands.js';
import type { IncidentCommands } from '../use-cases/incident-commands.js';
import { createActionCommands, type ActionCommands } from '../use-cases/run-action.js';
import { mergeIncidents, openIncidentFromOverflow, splitFamily } from '../use-cases/open-incident.js';
import type { GroupingCommands } from '../use-cases/grouping-commands.js';
import { enqueuePending } from '../use-cases/ingest-events.js';
import { dispatchPendingFixOrders, type FixOrderDeps } from '../use-cases/dispatch-fix-orders.js';
import type { Adapters } from './adapters.js';
import { mergeAudits } from './cells/merged-audit.js';

export interface MedicParts {
  config: Config;
  redis: RedisClient;
  adapters: Adapters;
  logger: Logger;
  metrics: Metrics;
  clock?: () => Date;
  /** Fault injection for crash drills: called after each persisted step. */
  afterStep?: (step: string) => void;
  /** Set when this Medic is one cell of several (src/app/cells/create-cells.ts). */
  cell?: CellRole;
}

/** What a cell does of the whole: who reads the log source, who answers clicks; the adapters are the whole's. */
export interface CellRole {
  /** The poll of the cell that reads the log source for every cell (cell 0), made from its own; absent: the cell runs no poll. */
  poll?: (own: PollDeps) => PollDeps;
  /** The configured prefix, home of what spans cells: the clicks the web role hands over and their replay claims. */
  home: string;
  /** The trail kept across cells (the gateway's, under the home prefix), read with this cell's own. */
  sharedAudit: AuditLog;
  /** The surfaces over every cell, on the one cell that answers the clicks the web role acked; absent: it answers none. */
  clicks?: () => { commands: IncidentCommands; actions?: ActionCommands };
}

/** The numbers behind Medic's gauges, read from Redis (summed over cells when there are several). */
export interface GaugeReadings {
  queues: Record<string, Record<string, number>>;
  cardsFailing: number;
  byState: Partial<Record<IncidentState, number>>;
}

export interface Medic {
  store: IncidentStore;
  audit: AuditLog;
  queues: Queues;
  commands: IncidentCommands;
  /** The card's operational-action buttons, when a gateway is wired. */
  actions?: ActionCommands;
  /** Grouping decisions from Slack (Open incident from the overflow), through the gateway. */
  grouping?: GroupingCommands;
  /** Where the web role leaves acked clicks; the worker role answers them. */
  followUps: ClickFollowUps;
  pipeline: PipelineDeps;
  fix: FixDeps;
  poll: PollDeps;
  /** Every configured service, each bounded (`doctor`); the card line from `cardReadings` (default: this Medic's own). */
  checks(cardReadings?: () => Promise<CardDeliveryReading[]>): Promise<ServiceCheck[]>;
  /** Where this Medic's card deliveries stand. */
  readCardDelivery(): Promise<CardDeliveryReading>;
  /** Redis's connection state and a bounded PING only (`/readyz`): no upstream is called. */
  ready(): Promise<ServiceCheck[]>;
  refreshGauges(): Promise<void>;
  readGauges(): Promise<GaugeReadings>;
  /** Starts the workers and the poll scheduler (the worker role). */
  startWorkers(options?: { poll?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** Sets the gauges from one reading: queue depths, failing cards, incidents per state. */
export function setGauges(metrics: Metrics, readings: GaugeReadings): void {
  for (const [name, counts] of Object.entries(readings.queues)) {
    for (const [state, n] of Object.entries(counts)) metrics.queueDepth.set({ queue: name, state }, n);
  }
  metrics.cardsFailing.set(readings.cardsFailing);
  for (const state of IncidentState.options) metrics.incidentsByState.set({ state }, Math.max(0, readings.byState[state] ?? 0));
}

const DEDUPE_RETENTION_MS = 7 * 86_400_000;
const CHECK_TIMEOUT_MS = 10_000;
/** How long a close waits, past MEDIC_SHUTDOWN_TIMEOUT_MS, for jobs still running to finish. */
const CLOSE_GRACE_MS = 10_000;

/** One service check that always answers: a failure or no answer within the bound is a FAIL. */
async function boundedCheck(checkable: Checkable, timeoutMs: number): Promise<ServiceCheck> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ServiceCheck>((resolve) => {
    timer = setTimeout(() => resolve({ name: 'service', adapter: '?', ok: false, detail: `no answer within ${timeoutMs / 1000} s` }), timeoutMs);
  });
  try {
    return await Promise.race([checkable.check().catch((error: unknown) => ({ name: 'service', adapter: '?', ok: false, detail: String(error) })), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Wires the state, queues, pipeline and use-cases around a set of adapters. */
export function createMedic(parts: MedicParts): Medic {
  const { config, redis, adapters, logger, metrics } = parts;
  const prefix = config.MEDIC_REDIS_PREFIX;
  const clock = parts.clock ?? (() => new Date());
  const store = createIncidentStore(redis, prefix, { retentionMs: config.MEDIC_RETENTION_DAYS * 86_400_000, auditMaxLen: config.MEDIC_AUDIT_MAXLEN });
  const ownAudit = createAuditLog(redis, prefix, { maxLen: config.MEDIC_AUDIT_MAXLEN });
  const audit = parts.cell?.sharedAudit ? mergeAudits([ownAudit, parts.cell.sharedAudit]) : ownAudit;
  const storm = stormSettingsFrom(config);
  const queues = createQueues(redis, prefix, { cardRefreshS: storm.cardRefreshS });
  const workers: Worker[] = [];
  const answerers: ClickAnswerer[] = [];
  // The web role hands clicks over under the home prefix, whichever cell holds the incident.
  const clicksPrefix = parts.cell?.home ?? prefix;
  const followUps = createClickFollowUpStream(redis, clicksPrefix);
  // Learning is a courtesy to the next incident: a failed write-back is logged, never fatal.
  // A write-back to Medic's own document index, outside the gateway (README: side effects outside
  // the gateway): it touches no operator system and no model chooses it, so it is audited here.
  const learn = async (incident: Parameters<Adapters['learnFrom']>[0]) => {
    const outcome = await adapters.learnFrom(incident).then(
      () => 'done' as const,
      (error: unknown) => (logger.warn({ incidentId: incident.id, err: error }, 'could not write the incident back to the documents'), 'failed' as const),
    );
    await audit
      .append([{ at: clock().toISOString(), action: 'learning.write-back', outcome, actor: { kind: 'pipeline', id: 'medic' }, incidentId: incident.id, details: { state: incident.state, votes: incident.feedback.length } }])
      .catch((error: unknown) => logger.warn({ incidentId: incident.id, err: error }, 'could not audit the write-back'));
  };
  const afterStep = parts.afterStep ? (step: string) => parts.afterStep?.(step) : undefined;
  const cardState = createRedisCardDeliveryState(redis, prefix, { auditMaxLen: config.MEDIC_AUDIT_MAXLEN });
  const delivery: DeliverCardDeps = {
    store, chat: adapters.chat, state: cardState, clock, logger, metrics,
    retry: { minMs: config.MEDIC_CARD_RETRY_MIN_MS, maxMs: config.MEDIC_CARD_RETRY_MAX_MS }, attempts: config.MEDIC_CARD_ATTEMPTS,
  };

  // Every card write and thread reply is a delivery (see jobs/deliver-card.ts); nothing else writes a card.
  const deliveries = createCardDeliveries(queues, cardState, config.MEDIC_CARD_ATTEMPTS);
  const { requestCard, requestReply } = deliveries;
  const pipeline: PipelineDeps = {
    store, logs: adapters.logs, chat: adapters.chat, requestCard, requestReply,
    analystFor: adapters.analystFor,
    findSimilarDocs: adapters.findSimilarDocs, findRecentChanges: adapters.findRecentChanges,
    searchCode: adapters.searchCode, validateFix: adapters.validateFix, checkProposal: adapters.checkProposal, runDiagnostics: adapters.runDiagnostics,
    findSuspectCommits: adapters.findSuspectCommits, findRevert: adapters.findRevert, routeFor: adapters.routeFor,
    // The same failure in two services is one fix only where the catalog puts both in one repository.
    failureLinks: createRedisFailureLinks(redis, prefix), repositoryOf: (service) => adapters.routeFor(service).repository,
    settings: {
      windowBeforeMs: config.MEDIC_WINDOW_BEFORE_MS, windowAfterMs: config.MEDIC_WINDOW_AFTER_MS, windowLimit: config.MEDIC_WINDOW_LIMIT,
      similarDocs: config.MEDIC_SIMILAR_DOCS, recentChangesDays: config.MEDIC_RECENT_CHANGES_DAYS,
      revertProposals: config.MEDIC_REVERT_PROPOSALS, revertMaxAgeDays: config.MEDIC_REVERT_MAX_AGE_DAYS,
    },
    clock, logger, metrics, afterStep,
  };
  const verify = createVerifyParts({ config, adapters, store, audit, deliveries, queues, metrics, clock, logger });
  const fix: FixDeps = { store, deliveries, publisher: adapters.publisher, pullRequests: adapters.pullRequests, clock, logger, metrics, afterStep, learn,
    ...(verify ? { verify: verify.fix } : {}),
    watchChecks: adapters.pullRequests.checks ? (incident) => queues.enqueueChecksWatch(incident.id, 0, config.MEDIC_CHECKS_INTERVAL_S * 1000) : undefined,
  };
  const poll: PollDeps = {
    store, source: adapters.logs, checkpoints: createCheckpointStore(redis, prefix), templates: createTemplateSnapshotStore(redis, prefix), redis, prefix, logger, clock,
    dedupeRetentionMs: DEDUPE_RETENTION_MS,
    enqueueAnalysis: (id, round) => queues.enqueueAnalysis(id, round), enqueueAnalyses: (ids) => queues.enqueueAnalyses(ids),
    enqueueCardRefresh: (id) => queues.enqueueCardRefresh(id), enqueueCardRefreshes: (ids) => queues.enqueueCardRefreshes(ids), storm,
    onIngested: (status) => metrics.eventsIngested.inc({ status }), afterStep, rules: adapters.groupingRules,
    opens: (event) => opensIncident(adapters.catalog.route(event.service), event.severity),
    serviceOf: (logName) => findService(adapters.catalog.current(), logName)?.name,
  };
  const fixOrders: FixOrderDeps = {
    store,
    recordApproval: async (incident, approverId) => {
      if (incident.proposal) await recordFixApproval(adapters.approvals, { incidentId: incident.id, proposal: incident.proposal, approverId });
    },
    enqueueFix: (id, hash, round) => queues.enqueueFix(id, hash, round),
  };
  const commands = createIncidentCommands({
    ...fixOrders, audit, authority: adapters.authority, clock, metrics,
    enqueueAnalysis: (id, round) => queues.enqueueAnalysis(id, round),
    announce: createDecisionAnnouncer({ deliveries, logger, stats: (id) => store.stats(id) }),
    learn: (incident) => learn(incident),
  });

  const actions = adapters.gateway && createActionCommands({ gateway: adapters.gateway, approvals: adapters.approvals, store, deliveries, clock });
  const gateway = adapters.gateway;
  const groupingDeps = gateway && {
    gateway, approvals: adapters.approvals, store,
    enqueueAnalysis: (id: string, round: number) => queues.enqueueAnalysis(id, round), enqueueCardRefresh: (id: string) => queues.enqueueCardRefresh(id),
  };
  const grouping: GroupingCommands | undefined = groupingDeps && {
    openFromOverflow: (click) => openIncidentFromOverflow(groupingDeps, click),
    merge: (input) => mergeIncidents(groupingDeps, input),
    split: (input) => splitFamily(groupingDeps, input),
  };


  async function readGauges(): Promise<GaugeReadings> {
    const depths: GaugeReadings['queues'] = {};
    for (const [name, queue] of Object.entries({ poll: queues.poll, analyze: queues.analyze, fix: queues.fix, refresh: queues.refreshCard, sweep: queues.sweep, checks: queues.watchChecks, verify: queues.verifyFix, deliver: queues.deliverCard })) {
      depths[name] = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
    }
    return { queues: depths, cardsFailing: (await cardState.failing()).length, byState: await store.countByState() };
  }

  async function readCardDelivery(): Promise<CardDeliveryReading> {
    const [failing, queued, stale] = await Promise.all([
      cardState.failing(), queues.deliverCard.getJobCounts('waiting', 'delayed', 'active', 'prioritized'), findStaleCards({ store, cards: cardState }, clock().getTime()),
    ]);
    return { failing, queued, stale };
  }

  return {
    store, audit, queues, commands, followUps, pipeline, fix, poll, ...(actions ? { actions } : {}), ...(grouping ? { grouping } : {}),
    readCardDelivery,
    async checks(cardReadings = async () => [await readCardDelivery()]) {
      const redisCheck: Checkable = {
        check: () => redis.ping().then(
          () => ({ name: 'redis', adapter: 'redis', ok: true, detail: 'answers PING' }),
          (error: unknown) => ({ name: 'redis', adapter: 'redis', ok: false, detail: String(error) }),
        ),
      };
      const cardCheck: Checkable = {
        check: async () => describeCardDelivery(combineCardReadings(await cardReadings())),
      };
      // All at once, each bounded: `doctor` takes as long as its slowest check, never their sum.
      return Promise.all([redisCheck, ...adapters.checks, cardCheck].map((c) => boundedCheck(c, CHECK_TIMEOUT_MS)));
    },
    ready: async () => [await checkRedisReady(redis)],
    readGauges,
    refreshGauges: async () => setGauges(metrics, await readGauges()),
    async startWorkers(options = {}) {
      // A cell's adapters are the whole's, prepared once by it.
      if (!parts.cell) await adapters.prepare?.();
      const workerOptions = { connection: redis, redisPrefix: prefix, lockDurationMs: config.MEDIC_JOB_LOCK_MS, logger };
      workers.push(startWorker(createAnalyzeJob(pipeline, { concurrency: config.MEDIC_ANALYZE_CONCURRENCY }), workerOptions), startWorker(createApplyFixJob(fix), workerOptions));
      if (adapters.pullRequests.checks) {
        const watch = { store, deliveries, pullRequests: adapters.pullRequests, logger, clock, intervalMs: config.MEDIC_CHECKS_INTERVAL_S * 1000, maxLooks: config.MEDIC_CHECKS_MAX_LOOKS, enqueue: (id: string, attempt: number, delayMs: number) => queues.enqueueChecksWatch(id, attempt, delayMs) };
        workers.push(startWorker(createWatchChecksJob(watch), workerOptions));
      }
      if (verify) workers.push(startWorker(createVerifyFixJob(verify.deps), workerOptions));
      workers.push(
        // A refresh shows a new event count, which the record's version does not capture: each is a delivery of its own.
        startWorker(createRefreshCardJob({ store, clock, requestCard: (id, version, priority) => requestCard(id, version, priority, `refresh-${Date.now()}`), ...(verify ? { reopen: verify.reopen } : {}) }), workerOptions),
        startWorker(createDeliverCardJob(delivery), workerOptions),
        startWorker(createSweepJob({
          store, deliveries, cards: cardState, clock, logger, quietPeriodS: storm.quietPeriodS, ...(verify ? { verify: verify.sweep } : {}),
          postTimeline: (id) => postTimeline({ store, audit, deliveries }, id),
          resume: { ...fixOrders, clock, logger, stuckAfterS: config.MEDIC_STUCK_AFTER_S, resumeAnalysis: (id, round) => queues.resumeAnalysis(id, round), resumeFix: (id, hash, round) => queues.resumeFix(id, hash, round) },
        }), workerOptions),
      );
      // Clicks the web role acked: the use-case and the clicker's ephemeral run here, off its loop.
      const claims = createRedisDeliveryClaims(redis, clicksPrefix);
      const surfaces = parts.cell ? parts.cell.clicks?.() : { commands, ...(actions ? { actions } : {}) };
      if (surfaces) {
        const answerDeps = { ...surfaces, logger, tell: tellThroughChat(adapters.chat, audit, logger), claim: (key: string, deliveryId?: string) => claims.claim(key, deliveryId) };
        answerers.push(await startClickAnswerer(redis, clicksPrefix, (click) => answerClick(answerDeps, click), { logger }));
      }
      await queues.sweep.upsertJobScheduler('sweep-quiet', { every: config.MEDIC_SWEEP_INTERVAL_S * 1000 }, { name: 'sweep', data: {} });
      if (config.SPLUNK_HEC_URL && config.SPLUNK_HEC_TOKEN) {
        const hec = createHecClient({ url: config.SPLUNK_HEC_URL, token: config.SPLUNK_HEC_TOKEN, index: config.SPLUNK_HEC_INDEX, sourcetype: config.SPLUNK_HEC_SOURCETYPE });
        workers.push(startWorker(createForwardAuditJob({ redis, prefix, hec, batch: 500, audit, now: clock }), workerOptions));
        await queues.forwardAudit.upsertJobScheduler('forward-audit', { every: config.SPLUNK_HEC_INTERVAL_MS }, { name: 'forward-audit', data: {} });
      }
      if (config.MEDIC_AUDIT_ARCHIVE_FILE) {
        workers.push(startWorker(createArchiveAuditJob({ redis, prefix, file: config.MEDIC_AUDIT_ARCHIVE_FILE, batch: 1_000 }), workerOptions));
        await queues.archiveAudit.upsertJobScheduler('archive-audit', { every: config.MEDIC_AUDIT_ARCHIVE_INTERVAL_MS }, { name: 'archive-audit', data: {} });
      }
      // Recover work a crash left between two writes: incidents never enqueued, approvals never started.
      await enqueuePending(poll);
      await dispatchPendingFixOrders(fixOrders);
      const reader = parts.cell ? parts.cell.poll?.(poll) : poll;
      if (options.poll !== false && reader) {
        workers.push(startWorker(createPollJob(reader), workerOptions));
        await queues.poll.upsertJobScheduler(`poll-${adapters.logs.name}`, { every: config.MEDIC_POLL_INTERVAL_MS }, { name: 'poll', data: {} });
      }
    },
    async close() {
      const timeout = (ms: number) => new Promise<false>((resolve) => setTimeout(() => resolve(false), ms).unref());
      const closing = Promise.all(workers.map((w) => w.close())).then(() => true);
      // BullMQ's close(true) on a worker already closing only returns the graceful close, so
      // forcing cannot cut a job short. Past the timeout, jobs still running are left to their
      // lock (the next worker resumes them from their checkpoint), and the wait is bounded: a
      // worker whose Redis node died mid-command may never finish closing.
      const drained = await Promise.race([closing, timeout(config.MEDIC_SHUTDOWN_TIMEOUT_MS)]);
      if (!drained && !(await Promise.race([closing, timeout(CLOSE_GRACE_MS)]))) logger.warn({ prefix }, 'workers still closing; their jobs are left to their locks');
      await Promise.all(answerers.map((a) => a.close()));
      await queues.close();
      if (!parts.cell) await adapters.close?.();
    },
  };
}
