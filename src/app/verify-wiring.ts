import type { Config } from '../config/schema.js';
import type { Incident } from '../domain/incident.js';
import type { VerifySettings } from '../domain/verification.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { observeTimeTo } from '../observability/time-to.js';
import type { AuditLog } from '../ports/audit.js';
import { postTimeline } from '../use-cases/post-timeline.js';
import type { CardDeliveries } from '../ports/card-delivery.js';
import type { IncidentStore } from '../ports/incident-store.js';
import type { Queues } from '../queue/queues.js';
import { reopenOnRegression } from '../use-cases/reopen-regression.js';
import type { VerifyDeps } from '../use-cases/verify-fix.js';
import type { RateChart } from '../ports/rate-chart.js';
import type { Adapters } from './adapters.js';
import { chatMode } from './chat-mode.js';

const DAY_MS = 86_400_000;

export interface VerifyParts {
  deps: VerifyDeps;
  /** For the fix round: the service's settings and the start of the watch. */
  fix: { settingsFor(service: string): VerifySettings; watch(incident: Incident): Promise<void> };
  /** For the sweep: reopen a returned family, resume a lost job. */
  sweep: { reopen(incidentId: string): Promise<unknown>; resume(incidentId: string, round: number): Promise<boolean>; maxWaitMs: number };
  reopen: (incidentId: string) => Promise<Incident | undefined>;
}

export interface VerifyWiring {
  config: Config;
  adapters: Adapters;
  store: IncidentStore;
  deliveries: CardDeliveries;
  queues: Queues;
  metrics: Metrics;
  clock: () => Date;
  logger: Logger;
  audit: AuditLog;
}

/**
 * Verification after the merge, where it can run: switched on (MEDIC_VERIFY) and a code host
 * that can tell a merge (GitHub, or the plain git remote of the default run). The local sandbox
 * shortens the quiet window and the looks, so a first run sees the verdict in a few minutes.
 */
export function createVerifyParts(w: VerifyWiring): VerifyParts | undefined {
  const { config, adapters } = w;
  if (!config.MEDIC_VERIFY || !adapters.pullRequests.mergeState) return undefined;
  const sandbox = chatMode(config) === 'sandbox';
  const windowMinutes = config.MEDIC_VERIFY_QUIET_MIN ?? (sandbox ? 1 : 30);
  const intervalMs = (config.MEDIC_VERIFY_INTERVAL_S ?? (sandbox ? 5 : 60)) * 1000;
  const settingsFor = (service: string): VerifySettings => {
    const route = adapters.catalog.route(service);
    const own = route.known ? route.service.verify : undefined;
    return { windowMinutes: own?.quietMinutes ?? windowMinutes, ...(own?.deploy ? { deploy: own.deploy } : {}) };
  };
  const maxWaitMs = config.MEDIC_VERIFY_MAX_DAYS * DAY_MS;
  // A closed incident's record lives for the retention; it holds its family a minute less, so no event is counted into a record Redis dropped.
  const regressionHoldMs = config.MEDIC_RETENTION_DAYS > 0 ? config.MEDIC_RETENTION_DAYS * DAY_MS - 60_000 : 30 * DAY_MS;
  const findLine = adapters.logs.findLine?.bind(adapters.logs);
  const deps: VerifyDeps = {
    store: w.store, deliveries: w.deliveries, pullRequests: adapters.pullRequests, settingsFor,
    // The line is log text: the marker names its time and the pattern, never the line itself.
    ...(findLine ? { findDeployLine: async (service: string, pattern: string, since: string) => {
      const hit = await findLine(service, pattern, since);
      return hit ? { at: hit.at, marker: `log line "${pattern.slice(0, 120)}"` } : undefined;
    } } : {}),
    chart: lazyChart(),
    observe: (incident, milestone, at) => observeTimeTo(w.metrics, incident, milestone, at),
    postTimeline: (incidentId) => postTimeline({ store: w.store, audit: w.audit, deliveries: w.deliveries }, incidentId),
    clock: w.clock, logger: w.logger,
    intervalMs, maxIntervalMs: Math.max(intervalMs, config.MEDIC_VERIFY_MAX_INTERVAL_S * 1000), maxWaitMs, regressionHoldMs,
  };
  const reopen = (incidentId: string) => reopenOnRegression(incidentId, { store: w.store, deliveries: w.deliveries, clock: w.clock });
  return {
    deps,
    fix: { settingsFor, watch: (incident) => w.queues.enqueueVerify(incident.id, incident.round, intervalMs) },
    sweep: { reopen, resume: (id, round) => w.queues.resumeVerify(id, round), maxWaitMs },
    reopen,
  };
}

/** ECharts and resvg load with the first verdict's chart, not with every start of Medic. */
function lazyChart(): RateChart {
  let chart: Promise<RateChart> | undefined;
  return {
    async render(input) {
      chart ??= import('../adapters/charts/echarts-rate-chart.js').then((m) => m.createEchartsRateChart());
      return (await chart).render(input);
    },
  };
}
