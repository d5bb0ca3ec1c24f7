import { z } from 'zod';
import type { IncidentStore } from '../src/ports/incident-store.js';
import { PIPELINE_ACTOR } from '../src/domain/audit.js';
import { transition, type Incident } from '../src/domain/incident.js';
import { FINISHED_STATES, isQuiet, quietMinutes } from '../src/domain/storm-policy.js';
import { isAwaitingVerification } from '../src/domain/verification.js';
import type { Logger } from '../src/observability/logger.js';
import type { CardDeliveries, CardDeliveryState } from '../src/ports/card-delivery.js';
import type { JobDefinition } from '../src/queue/job-definition.js';
import { resumeStuckIncidents, type ResumeDeps } from '../src/use-cases/resume-stuck-incidents.js';
import { repairStaleCards } from '../src/use-cases/stale-cards.js';

export interface SweepDeps {
  store: IncidentStore;
  deliveries: CardDeliveries;
  /** The cards' ledger: the sweep compares each open incident with what its card shows. */
  cards?: CardDeliveryState;
  clock: () => Date;
  logger: Logger;
  quietPeriodS: number;
  /** Resumes incidents a crash left in a working state; absent in tests of the quiet close alone. */
  resume?: ResumeDeps;
  /** Verification after the merge: a returned family reopens its verified incident; a fix still awaited has its job. */
  verify?: { reopen(incidentId: string): Promise<unknown>; resume(incidentId: string, round: number): Promise<boolean>; maxWaitMs: number };
  /** Posts the resolved incident's timeline in its thread (see use-cases/post-timeline.ts). */
  postTimeline?: (incidentId: string) => Promise<void>;
}

const SweepPayload = z.object({}).passthrough();

/**
 * Closes finished incidents (reported, rejected, fixed, fix_failed) whose family has been quiet
 * for MEDIC_QUIET_PERIOD_S, and releases their fingerprint: the next event of the family opens a
 * new incident that names this one as its predecessor. Runs on a job scheduler; every worker
 * may run it, because each close is a compare-and-set on the record. It also resumes incidents
 * stuck in a working state (see resumeStuckIncidents), and delivers again every open card whose
 * ledger shows another state than its incident's.
 */
export function createSweepJob(deps: SweepDeps): JobDefinition<z.infer<typeof SweepPayload>> {
  return {
    queue: 'sweep',
    schema: SweepPayload,
    attempts: 1,
    backoffMs: 1_000,
    concurrency: 1,
    async perform() {
      await sweepQuietIncidents(deps);
      if (deps.resume) await resumeStuckIncidents(deps.resume);
      if (deps.verify) await resumeVerifications(deps, deps.verify);
      if (deps.cards) {
        const repaired = await repairStaleCards({ store: deps.store, cards: deps.cards, deliveries: deps.deliveries }, deps.clock().getTime());
        if (repaired.length > 0) deps.logger.warn({ cards: repaired }, 'cards behind their incident: delivering them again');
      }
      await deps.store.pruneExpired(deps.clock().getTime());
    },
  };
}

export async function sweepQuietIncidents(deps: SweepDeps): Promise<string[]> {
  const nowMs = deps.clock().getTime();
  const closed: string[] = [];
  for (const { id } of await deps.store.quietIncidents(nowMs - deps.quietPeriodS * 1000)) {
    const incident = await deps.store.get(id);
    if (!incident) continue;
    // A verified incident holds its family on purpose: an event of it since is a regression.
    if (incident.state === 'closed' && incident.resolution?.kind === 'verified') {
      await deps.verify?.reopen(incident.id);
      continue;
    }
    // A crash between the close and the release leaves a closed incident holding its family.
    if (incident.state === 'closed') await deps.store.releaseFingerprint(incident);
    if (!FINISHED_STATES.includes(incident.state)) continue;
    // A pushed fix awaiting its merge or verdict is closed by the verdict, not by a quiet family.
    if (isAwaitingVerification(incident.verification)) continue;
    const done = await closeQuiet(incident, nowMs, deps);
    if (done) closed.push(done.id);
  }
  if (closed.length > 0) deps.logger.info({ closed }, 'closed quiet incidents');
  return closed;
}

/** Every fix still awaited has its verification job: one lost to a crash after the push is added again. */
async function resumeVerifications(deps: SweepDeps, verify: NonNullable<SweepDeps['verify']>): Promise<void> {
  const nowMs = deps.clock().getTime();
  for (const incident of await deps.store.list({ states: ['fixed'] })) {
    const v = incident.verification;
    if (!v || !isAwaitingVerification(v) || nowMs - Date.parse(v.since) > verify.maxWaitMs) continue;
    if (await verify.resume(incident.id, incident.round)) deps.logger.warn({ incidentId: incident.id }, 'verification job was missing: added again');
  }
}

async function closeQuiet(incident: Incident, nowMs: number, deps: SweepDeps): Promise<Incident | undefined> {
  // Re-read the last event right before closing: one may have arrived since the listing.
  const lastEventMs = await deps.store.lastEventMs(incident.id);
  if (lastEventMs === undefined || !isQuiet(lastEventMs, nowMs, deps.quietPeriodS)) return undefined;
  const minutes = quietMinutes(lastEventMs, nowMs);
  const at = new Date(nowMs).toISOString();
  const reason = `resolved after ${minutes} quiet minutes`;
  // The timeline's last event comes from this record.
  const stats = await deps.store.stats(incident.id);
  const closed = await deps.store.update(incident.id, (current) =>
    FINISHED_STATES.includes(current.state)
      ? { incident: { ...transition(current, 'closed', at), resolution: { quietMinutes: minutes, kind: 'quiet' } }, audit: [{ at, action: 'incident.resolve', outcome: 'done', actor: PIPELINE_ACTOR, reason, details: { quietMinutes: minutes, from: current.state, lastSeen: stats?.lastSeen ?? null, count: stats?.count ?? 0 } }] }
      : undefined,
  );
  if (closed.state !== 'closed') return undefined;
  await deps.store.releaseFingerprint(closed);
  // The incident is closed either way; the card (with its resolution line) is a delivery.
  await deps.deliveries.requestCard(closed.id, closed.version, 'final').catch((error: unknown) => deps.logger.warn({ incidentId: closed.id, err: error }, 'could not request the resolution card'));
  await deps.postTimeline?.(closed.id).catch((error: unknown) => deps.logger.warn({ incidentId: closed.id, err: error }, 'could not post the timeline'));
  return closed;
}
