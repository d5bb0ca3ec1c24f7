import { transition } from '../../domain/incident.js';
import type { Step } from '../step.js';
import { withHolderCard } from './same-failure.js';

/**
 * The outcome: the incident waits for a human or is reported, and the delivery job updates its
 * card in place. A diff too long for the card is first posted whole in the card's thread (each
 * part once, by key), so the card that offers Approve always sits over a diff that was shown whole.
 */
export const cardStep: Step = {
  name: 'card',
  async run(incident, deps) {
    const sameFailureAs = await withHolderCard(incident, deps);
    const next = { ...transition(incident, incident.proposal ? 'awaiting_approval' : 'reported', deps.clock().toISOString()), sameFailureAs };
    // The delivery job posts the thread diff and the final card once this state is persisted.
    return { patch: { state: next.state, ...(sameFailureAs ? { sameFailureAs } : {}) }, details: { state: next.state } };
  },
};
