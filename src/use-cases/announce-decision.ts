import type { Incident } from '../domain/incident.js';
import type { Logger } from '../observability/logger.js';
import type { Chat } from '../ports/chat.js';
import type { RequestCard } from '../ports/card-delivery.js';
import { presentIncidentCard } from '../presenters/incident-card.js';
import { presentThreadReply } from '../presenters/thread-reply.js';
import type { IncidentView } from './incident-commands.js';

/**
 * Shows a decision where it was made: the card is updated in place ("Approved by @x — pushing…",
 * or rejected with its buttons closed) and the thread says who decided. Runs after the decision is
 * persisted; a failed post is logged, never undoes the decision.
 */
export function createDecisionAnnouncer(deps: { chat: Chat; logger: Logger; stats: (id: string) => Promise<IncidentView['stats']>; requestCard?: RequestCard }) {
  return async (incident: Incident): Promise<void> => {
    if (!incident.card || !incident.decision) return;
    const view = { incident, stats: await deps.stats(incident.id) };
    const event = incident.decision.verdict === 'approved' ? 'approved' : 'rejected';
    try {
      await deps.chat.updateCard(incident.card, presentIncidentCard(view));
      await deps.chat.replyInThread(incident.card, `decision:${incident.id}:${incident.decision.proposalHash}`, presentThreadReply(view, event));
    } catch (error) {
      deps.logger.warn({ incidentId: incident.id, err: error }, 'could not announce the decision; the delivery job retries the card');
      await deps.requestCard?.(incident.id, incident.version, 'final').catch(() => undefined);
    }
  };
}
