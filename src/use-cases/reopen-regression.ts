import { PIPELINE_ACTOR } from '../domain/audit.js';
import { transition, type Incident } from '../domain/incident.js';
import { isRegression } from '../domain/verification.js';
import type { CardDeliveries } from '../ports/card-delivery.js';
import type { IncidentStore } from '../ports/incident-store.js';
import { presentVerificationReply } from '../presenters/verification-reply.js';

export interface ReopenDeps {
  store: IncidentStore;
  deliveries: CardDeliveries;
  clock: () => Date;
}

/**
 * A verified incident whose family came back (an event timed after the fix's deploy, counted
 * into it while it held the family) opens again: the same incident, its card updated and its
 * thread told. Idempotent: once reopened it is no longer closed, and the reply is keyed.
 */
export async function reopenOnRegression(incidentId: string, deps: ReopenDeps): Promise<Incident | undefined> {
  const incident = await deps.store.get(incidentId);
  if (!incident || incident.state !== 'closed' || incident.resolution?.kind !== 'verified') return undefined;
  const stats = await deps.store.stats(incidentId);
  if (!isRegression(incident.verification, stats?.lastSeen)) return undefined;
  const deployedAt = incident.verification!.deployedAt!;
  // The oldest sampled event after the deploy; the sample keeps the newest, so a big return may only show its last.
  const returned = (await deps.store.recentEvents(incidentId)).map((e) => e.time).filter((t) => t > deployedAt).sort();
  const firstEventAt = returned[0] ?? stats!.lastSeen;
  const at = deps.clock().toISOString();
  const afterBranch = incident.fix?.branch ?? '';
  const reopened = await deps.store.update(incidentId, (current) =>
    current.state === 'closed' && current.resolution?.kind === 'verified'
      ? {
        incident: { ...transition(current, 'reported', at), resolution: undefined, regressions: [...current.regressions, { at, firstEventAt, afterBranch }] },
        audit: [{ at, action: 'incident.regressed', outcome: 'done', actor: PIPELINE_ACTOR, details: { firstEventAt, afterBranch, count: stats?.count ?? 0 } }],
      }
      : undefined,
    incident,
  );
  if (reopened.state !== 'reported' || reopened.regressions.at(-1)?.at !== at) return undefined;
  // Open again: the family stays with it for good, until it is closed again.
  await deps.store.holdFamily(reopened);
  await deps.deliveries.requestReply(incidentId, `regressed:${incidentId}:${reopened.regressions.length}`, presentVerificationReply({ incident: reopened, ...(stats ? { stats } : {}) }, 'regressed'));
  await deps.deliveries.requestCard(incidentId, reopened.version, 'final');
  return reopened;
}
