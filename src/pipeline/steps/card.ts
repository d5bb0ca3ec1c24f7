import { transition } from '../../domain/incident.js';
import { presentIncidentCard } from '../../presenters/incident-card.js';
import type { Step } from '../step.js';

/** The outcome: the card is updated in place and the incident waits for a human or is reported. */
export const cardStep: Step = {
  name: 'card',
  async run(incident, deps) {
    const next = transition(incident, incident.proposal ? 'awaiting_approval' : 'reported', deps.clock().toISOString());
    const stats = await deps.store.stats(incident.id);
    const message = presentIncidentCard({ incident: next, stats });
    const card = next.card ?? (await deps.chat.postCard(`card:${incident.id}`, message));
    if (next.card) await deps.chat.updateCard(card, message);
    return { patch: { state: next.state, card }, details: { state: next.state } };
  },
};
