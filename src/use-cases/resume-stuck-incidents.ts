import type { IncidentState } from '../domain/incident.js';
import type { Logger } from '../observability/logger.js';
import { dispatchPendingFixOrders, type FixOrderDeps } from './dispatch-fix-orders.js';

export interface ResumeDeps extends FixOrderDeps {
  /** See `Queues.resumeAnalysis` / `resumeFix`: true when the job had to be (re)enqueued. */
  resumeAnalysis(incidentId: string, round: number): Promise<boolean>;
  resumeFix(incidentId: string, proposalHash: string, round: number): Promise<boolean>;
  clock: () => Date;
  logger: Logger;
  /** An incident in a working state unchanged this long is looked at (MEDIC_STUCK_AFTER_S). */
  stuckAfterS: number;
}

const WORKING: IncidentState[] = ['new', 'analyzing', 'approved', 'fixing'];

/**
 * Finds incidents left in a working state by a crash — an approval whose job was never enqueued, a
 * job that failed for good without its `onFailed` running, a job lost with a Redis restart — and
 * puts their work back on the queue. Every step it resumes is checkpointed and idempotent, so
 * resuming one that was merely slow costs a no-op. Returns the incidents resumed.
 */
export async function resumeStuckIncidents(deps: ResumeDeps): Promise<string[]> {
  await dispatchPendingFixOrders(deps);
  const cutoff = deps.clock().getTime() - deps.stuckAfterS * 1000;
  const resumed: string[] = [];
  for (const incident of await deps.store.list({ states: WORKING, limit: 10_000 })) {
    if (Date.parse(incident.updatedAt) > cutoff) continue;
    const decision = incident.decision?.verdict === 'approved' ? incident.decision : undefined;
    let requeued = false;
    if (incident.state === 'new' || incident.state === 'analyzing') {
      requeued = await deps.resumeAnalysis(incident.id, incident.round);
    } else if (decision) {
      // An approval whose record was never written (or has lapsed) is written again from the decision.
      if (incident.state === 'approved') await deps.recordApproval(incident, decision.actor.id);
      requeued = await deps.resumeFix(incident.id, decision.proposalHash, incident.round);
    }
    if (requeued) resumed.push(incident.id);
  }
  if (resumed.length > 0) deps.logger.warn({ resumed }, 'resumed incidents left in a working state');
  return resumed;
}
