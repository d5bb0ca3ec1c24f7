import type { Incident } from '../domain/incident.js';
import type { Logger } from '../observability/logger.js';
import type { CardDeliveries } from '../ports/card-delivery.js';
import { presentThreadReply } from '../presenters/thread-reply.js';
import type { IncidentView } from './incident-commands.js';

/**
 * Shows a decision where it was made: the card is updated in place ("Approved by @x — pushing…",
 * or rejected with its buttons closed) and the thread says who decided. Both are deliveries, so
 * the card's ledger records what it shows and a re-run after a rejection is never taken for an
 * unchanged card. Runs after the decision is persisted; a failed request is logged, never undoes
 * the decision (the sweep repairs a card left behind).
 */
export function createDecisionAnnouncer(deps: { deliveries: CardDeliveries; logger: Logger; stats: (id: string) => Promise<IncidentView['stats']> }) {
  return async (incident: Incident): Promise<void> => {
    if (!incident.decision) return;
    const event = incident.decision.verdict === 'approved' ? 'approved' : 'rejected';
    try {
      await deps.deliveries.requestCard(incident.id, incident.version, 'final');
      const view = { incident, stats: await deps.stats(incident.id) };
      // Keyed by round and verdict: a rejection, a re-run and an approval of the same proposal are three replies.
      await deps.deliveries.requestReply(incident.id, `decision:${incident.id}:${incident.round}:${event}:${incident.decision.proposalHash}`, presentThreadReply(view, event));
    } catch (error) {
      deps.logger.warn({ incidentId: incident.id, err: error }, 'could not announce the decision; the sweep repairs the card');
    }
  };
}
