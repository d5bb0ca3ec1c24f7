import type { CardDeliveries, CardDeliveryState } from '../ports/card-delivery.js';
import type { Queues } from '../queue/queues.js';

/**
 * Card writes and thread replies as durable deliveries: a request is a Redis write plus a
 * deliver-card job, so the caller's work (an analysis, a decision, a pushed fix) never waits on
 * Slack and never fails because of it. A reply is kept until it is delivered.
 */
export function createCardDeliveries(queues: Queues, state: CardDeliveryState, attempts: number, now: () => number = Date.now): CardDeliveries {
  return {
    requestCard: (incidentId, version, priority, occasion) => queues.enqueueCardDelivery(incidentId, version, priority, attempts, occasion),
    async requestReply(incidentId, key, message) {
      await state.addReply(incidentId, { key, message, at: now() });
      await queues.enqueueReplyDelivery(incidentId, key, attempts);
    },
  };
}
