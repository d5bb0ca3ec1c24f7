import type { Incident } from '../domain/incident.js';
import type { FixOrder, IncidentStore } from '../ports/incident-store.js';

export interface FixOrderDeps {
  store: IncidentStore;
  /** Tells the tool gateway a human approved this exact fix, so the job's push passes the gate. */
  recordApproval(incident: Incident, approverId: string): Promise<void>;
  enqueueFix(incidentId: string, proposalHash: string, round: number): Promise<void>;
}

/**
 * Keeps the promise an approval wrote into the outbox: the gateway's approval record and the fix
 * job, then the entry is completed. Safe to run any number of times, by the web right after the
 * approval and by every worker afterwards: the job id is fixed by incident, round and proposal, and
 * the approval is only (re)recorded while the incident still waits for its fix to start.
 */
export async function dispatchFixOrder(deps: FixOrderDeps, order: FixOrder): Promise<void> {
  const incident = await deps.store.get(order.incidentId);
  const waiting =
    incident !== undefined && incident.state === 'approved' && incident.round === order.round &&
    incident.decision?.verdict === 'approved' && incident.decision.proposalHash === order.proposalHash;
  if (waiting) {
    await deps.recordApproval(incident, order.approverId);
    await deps.enqueueFix(order.incidentId, order.proposalHash, order.round);
  }
  await deps.store.completeOrder(order);
}

/** Every outbox entry a crash left behind (a web killed between the approval and the enqueue). */
export async function dispatchPendingFixOrders(deps: FixOrderDeps): Promise<number> {
  const orders = await deps.store.pendingOrders();
  for (const order of orders) await dispatchFixOrder(deps, order);
  return orders.length;
}
