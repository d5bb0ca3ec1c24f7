import { PIPELINE_ACTOR, type AuditEvent } from '../domain/audit.js';
import { eventsFrom, type EventRate } from '../domain/event-rate.js';
import { transition, type Incident, type IncidentStats } from '../domain/incident.js';
import { isAwaitingVerification, judge, ratePerHour, windowEndMs, type Verification, type VerifySettings } from '../domain/verification.js';
import type { Logger } from '../observability/logger.js';
import type { Milestone } from '../observability/metrics.js';
import type { CardDeliveries } from '../ports/card-delivery.js';
import type { ChatImage } from '../ports/chat.js';
import type { DeployMarker, PullRequests } from '../ports/code.js';
import type { IncidentStore } from '../ports/incident-store.js';
import type { RateChart } from '../ports/rate-chart.js';
import { presentIncidentTitle } from '../presenters/incident-title.js';
import { presentVerificationReply, type VerificationEvent } from '../presenters/verification-reply.js';

export interface VerifyDeps {
  store: IncidentStore;
  deliveries: CardDeliveries;
  pullRequests: Pick<PullRequests, 'mergeState' | 'deployment'>;
  /** A log line of the service matching `pattern` after `sinceIso`: the log-line deploy marker. */
  findDeployLine?: (service: string, pattern: string, sinceIso: string) => Promise<DeployMarker | undefined>;
  /** The incident's service's settings (catalog `verify:` over the defaults). */
  settingsFor(service: string): VerifySettings;
  /** The before/after picture of the verdict; absent: the verdict goes as text. */
  chart?: RateChart;
  /** Posts the incident's timeline in its thread once it is resolved. */
  postTimeline?: (incidentId: string) => Promise<void>;
  /** Observes the time from the incident's first event to a milestone (see observability/time-to.ts). */
  observe?: (incident: Incident, milestone: Milestone, at: Date | string) => void;
  clock: () => Date;
  logger: Pick<Logger, 'warn' | 'info'>;
  /** The first wait between two looks for the merge or the deploy; it grows to maxIntervalMs. */
  intervalMs: number;
  maxIntervalMs: number;
  /** How long after the push Medic keeps looking for the merge. */
  maxWaitMs: number;
  /** How long a verified incident holds its family: a return within it reopens the incident. */
  regressionHoldMs: number;
}

/** What a look decided: when to look again (ms from now), or nothing more to do. */
export type LookResult = { next: 'again'; inMs: number } | { next: 'done'; outcome: string };

/**
 * One look at a pushed fix: for its merge, then its deploy, then (at the end of the quiet window)
 * the verdict. Each change of the record is a compare-and-set written with its audit record, and
 * each message is a delivery keyed by incident, round and event: a look run twice (a retry after a
 * crash) finds the record moved on and says nothing twice.
 */
export async function lookAtFix(incidentId: string, attempt: number, deps: VerifyDeps): Promise<LookResult> {
  const incident = await deps.store.get(incidentId);
  const verification = incident?.verification;
  if (!incident || !verification) return { next: 'done', outcome: 'nothing-awaited' };
  if (!isAwaitingVerification(verification)) {
    // A look retried after a crash between the verdict's write and its message says it now (each message is keyed: said once).
    if (verification.decidedAt && attempt > 0) await announceVerdict(incident, deps);
    return { next: 'done', outcome: 'nothing-awaited' };
  }
  if (incident.state !== 'fixed' || incident.fix?.pushStatus !== 'pushed') return { next: 'done', outcome: `incident-${incident.state}` };
  const nowMs = deps.clock().getTime();
  const settings = deps.settingsFor(incident.service);
  switch (verification.status) {
    case 'awaiting_merge':
      return awaitMerge(incident, verification, settings, attempt, nowMs, deps);
    case 'awaiting_deploy':
      return awaitDeploy(incident, verification, settings, attempt, nowMs, deps);
    default:
      return decide(incident, verification, nowMs, deps);
  }
}

function backoff(attempt: number, deps: VerifyDeps): number {
  return Math.min(deps.maxIntervalMs, deps.intervalMs * (1 + Math.floor(attempt / 10)));
}

function gaveUp(verification: Verification, nowMs: number, deps: VerifyDeps): boolean {
  return nowMs - Date.parse(verification.since) > deps.maxWaitMs;
}

async function awaitMerge(incident: Incident, verification: Verification, settings: VerifySettings, attempt: number, nowMs: number, deps: VerifyDeps): Promise<LookResult> {
  const fix = incident.fix!;
  const state = deps.pullRequests.mergeState ? await deps.pullRequests.mergeState({ branch: fix.branch, ...(fix.pullRequest ? { pullNumber: fix.pullRequest.number } : {}) }) : undefined;
  if (!state) return { next: 'done', outcome: 'no-merge-state' };
  if (!state.merged) return gaveUp(verification, nowMs, deps) ? { next: 'done', outcome: 'merge-not-seen' } : { next: 'again', inMs: backoff(attempt, deps) };
  const at = new Date(nowMs).toISOString();
  const mergedAt = state.mergedAt ?? at;
  const stats = await deps.store.stats(incident.id);
  const merged: Verification = { ...verification, status: settings.deploy ? 'awaiting_deploy' : 'watching', mergedAt, ...(state.commit ? { mergeCommit: state.commit } : {}), looks: verification.looks + 1 };
  const audit: AuditEvent[] = [{ at, action: 'fix.merged', outcome: 'done', actor: PIPELINE_ACTOR, details: { mergedAt, commit: state.commit ?? null, pullNumber: fix.pullRequest?.number ?? null, branch: fix.branch } }];
  // Without a deploy marker the merge is the deploy.
  const next = settings.deploy ? merged : deployed(merged, { at: mergedAt, marker: 'merge' }, stats, await deps.store.eventRate(incident.id));
  if (!settings.deploy) audit.push(deployAudit(at, next));
  const updated = await writeVerification(incident, next, audit, deps);
  if (!updated) return { next: 'done', outcome: 'moved-on' };
  deps.observe?.(incident, 'merge', mergedAt);
  await reply(updated, 'merged', deps);
  return next.status === 'watching' ? { next: 'again', inMs: Math.max(0, windowEndMs(next)! - nowMs) } : { next: 'again', inMs: deps.intervalMs };
}

async function awaitDeploy(incident: Incident, verification: Verification, settings: VerifySettings, attempt: number, nowMs: number, deps: VerifyDeps): Promise<LookResult> {
  const marker = await findDeploy(incident, verification, settings, deps);
  if (!marker) return gaveUp(verification, nowMs, deps) ? { next: 'done', outcome: 'deploy-not-seen' } : { next: 'again', inMs: backoff(attempt, deps) };
  const at = new Date(nowMs).toISOString();
  const next = deployed({ ...verification, looks: verification.looks + 1 }, marker, await deps.store.stats(incident.id), await deps.store.eventRate(incident.id));
  const updated = await writeVerification(incident, next, [deployAudit(at, next)], deps);
  if (!updated) return { next: 'done', outcome: 'moved-on' };
  await reply(updated, 'deployed', deps);
  return { next: 'again', inMs: Math.max(0, windowEndMs(next)! - nowMs) };
}

async function findDeploy(incident: Incident, verification: Verification, settings: VerifySettings, deps: VerifyDeps): Promise<DeployMarker | undefined> {
  const since = verification.mergedAt ?? verification.since;
  const deploy = settings.deploy;
  if (!deploy) return { at: since, marker: 'merge' };
  if (deploy.kind === 'log-line') return deps.findDeployLine?.(incident.service, deploy.pattern, since);
  const commit = verification.mergeCommit ?? incident.fix?.commit;
  if (!commit || !deps.pullRequests.deployment) return undefined;
  return deps.pullRequests.deployment(commit, since, deploy.kind, deploy.kind === 'github-deployment' ? deploy.environment : undefined);
}

/** The watch from the deploy on: the rate before it is what "before" means in the verdict. */
function deployed(verification: Verification, marker: DeployMarker, stats: IncidentStats | undefined, rate: EventRate): Verification {
  const count = stats?.count ?? 0;
  const after = eventsFrom(rate, marker.at);
  const lastBefore = stats && stats.lastSeen < marker.at ? stats.lastSeen : marker.at;
  return {
    ...verification,
    status: 'watching',
    deployedAt: marker.at,
    deployMarker: marker.marker.slice(0, 200),
    countAtDeploy: count,
    beforePerHour: stats ? ratePerHour(Math.max(0, count - after), stats.firstSeen, lastBefore) : 0,
  };
}

function deployAudit(at: string, verification: Verification): AuditEvent {
  return { at, action: 'fix.deployed', outcome: 'done', actor: PIPELINE_ACTOR, details: { deployedAt: verification.deployedAt ?? null, marker: verification.deployMarker ?? null, beforePerHour: verification.beforePerHour ?? null } };
}

/** At the end of the quiet window: verified (closed, holding the family for a regression) or still failing (open again). */
async function decide(incident: Incident, verification: Verification, nowMs: number, deps: VerifyDeps): Promise<LookResult> {
  // The merge's message again, by its key: a crash between the merge's write and its message loses nothing.
  await reply(incident, verification.deployMarker === 'merge' ? 'merged' : 'deployed', deps);
  const stats = await deps.store.stats(incident.id);
  const rate = await deps.store.eventRate(incident.id);
  // Whole minutes after the deploy's own: the deploy minute holds events from before it too.
  const since = verification.deployedAt ? eventsFrom(rate, new Date(Date.parse(verification.deployedAt) + 60_000).toISOString()) : 0;
  const verdict = judge(verification, stats?.lastSeen, since, nowMs);
  if (verdict.kind === 'wait') return { next: 'again', inMs: Math.max(0, verdict.untilMs - nowMs) };
  const at = new Date(nowMs).toISOString();
  const facts = { deployedAt: verification.deployedAt ?? null, windowMinutes: verification.windowMinutes, beforePerHour: verification.beforePerHour ?? null, firstSeen: stats?.firstSeen ?? null, lastSeen: stats?.lastSeen ?? null, count: stats?.count ?? 0 };
  const decided: Verification = { ...verification, status: verdict.kind, decidedAt: at, eventsSince: verdict.kind === 'verified' ? 0 : verdict.eventsSince, looks: verification.looks + 1 };
  const updated = await deps.store.update(incident.id, (current) => {
    if (current.state !== 'fixed' || current.verification?.status !== 'watching') return undefined;
    if (verdict.kind === 'verified') {
      return {
        incident: { ...transition(current, 'closed', at), verification: decided, resolution: { quietMinutes: Math.ceil(verification.windowMinutes), kind: 'verified' } },
        audit: [{ at, action: 'incident.verified', outcome: 'done', actor: PIPELINE_ACTOR, details: facts }],
      };
    }
    return {
      incident: { ...transition(current, 'reported', at), verification: decided },
      audit: [{ at, action: 'incident.still-failing', outcome: 'done', actor: PIPELINE_ACTOR, details: { ...facts, eventsSince: decided.eventsSince ?? 0 } }],
    };
  }, incident);
  if (updated.verification?.decidedAt !== at) return { next: 'done', outcome: 'moved-on' };
  if (verdict.kind === 'verified') deps.observe?.(updated, 'verified', at);
  await announceVerdict(updated, deps, rate);
  return { next: 'done', outcome: verdict.kind };
}

/** What follows a verdict, each step idempotent: the family held (verified), the message with its chart, the timeline. */
async function announceVerdict(incident: Incident, deps: VerifyDeps, rate?: EventRate): Promise<void> {
  const verified = incident.verification?.status === 'verified';
  if (verified && incident.state === 'closed') await deps.store.holdFamily(incident, deps.regressionHoldMs);
  const decidedMs = Date.parse(incident.verification?.decidedAt ?? '') || deps.clock().getTime();
  await reply(incident, verified ? 'verified' : 'still-failing', deps, rate ?? (await deps.store.eventRate(incident.id)), decidedMs);
  if (verified) await deps.postTimeline?.(incident.id).catch((error: unknown) => deps.logger.warn({ incidentId: incident.id, err: error }, 'could not post the timeline'));
}

async function writeVerification(incident: Incident, next: Verification, audit: AuditEvent[], deps: VerifyDeps): Promise<Incident | undefined> {
  const status = incident.verification?.status;
  const updated = await deps.store.update(incident.id, (current) =>
    current.state === 'fixed' && current.verification?.status === status && current.verification?.since === next.since
      ? { incident: { ...current, verification: next, updatedAt: audit[0]!.at }, audit }
      : undefined,
    incident,
  );
  return updated.verification?.status === next.status && updated.verification.looks === next.looks ? updated : undefined;
}

async function reply(incident: Incident, event: VerificationEvent, deps: VerifyDeps, rate?: EventRate, nowMs?: number): Promise<void> {
  const stats = await deps.store.stats(incident.id);
  const view = { incident, ...(stats ? { stats } : {}), ...(rate ? { rate } : {}) };
  let image: ChatImage | undefined;
  if (rate && deps.chart && incident.verification) {
    const v = incident.verification;
    // A picture that cannot be drawn never holds back the verdict.
    image = await deps.chart.render({ title: presentIncidentTitle(incident), rate, ...(v.deployedAt ? { deployedAt: v.deployedAt } : {}), ...(v.mergedAt ? { mergedAt: v.mergedAt } : {}), windowMinutes: v.windowMinutes, nowMs: nowMs ?? deps.clock().getTime() })
      .catch((error: unknown) => { deps.logger.warn({ incidentId: incident.id, err: error }, 'could not draw the verification chart'); return undefined; });
  }
  await deps.deliveries.requestReply(incident.id, `verify:${incident.id}:r${incident.round}:${event}`, presentVerificationReply(view, event, image));
  await deps.deliveries.requestCard(incident.id, incident.version, 'final');
}
