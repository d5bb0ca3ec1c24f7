import { transition } from '../../domain/incident.js';
import { diffFitsCard } from '../../presenters/diff-pages.js';
import { presentIncidentCard } from '../../presenters/incident-card.js';
import { presentThreadDiff } from '../../presenters/thread-diff.js';
import type { Step } from '../step.js';
import { withHolderCard } from './same-failure.js';

/**
 * The outcome: the card is updated in place and the incident waits for a human or is reported.
 * A diff too long for the card is first posted whole in the card's thread (each part once, by
 * key), so the card that offers Approve always sits over a diff that was shown whole.
 */
export const cardStep: Step = {
  name: 'card',
  async run(incident, deps) {
    const sameFailureAs = await withHolderCard(incident, deps);
    const next = { ...transition(incident, incident.proposal ? 'awaiting_approval' : 'reported', deps.clock().toISOString()), sameFailureAs };
    // The delivery job posts the thread diff and the final card once this state is persisted.
    if (deps.requestCard) return { patch: { state: next.state, ...(sameFailureAs ? { sameFailureAs } : {}) }, details: { state: next.state } };
    const stats = await deps.store.stats(incident.id);
    const rate = await deps.store.eventRate(incident.id);
    const card = incident.card ?? (await deps.chat.postCard(`card:${incident.id}`, presentIncidentCard({ incident, stats, rate }), incident.route?.channel));
    const proposal = next.proposal;
    if (proposal && !diffFitsCard(proposal)) {
      const parts = presentThreadDiff(next);
      for (const [i, part] of parts.entries()) await deps.chat.replyInThread(card, `diff:${incident.id}:${proposal.contentHash}:${i}`, part);
    }
    await deps.chat.updateCard(card, presentIncidentCard({ incident: { ...next, card }, stats, rate }));
    return { patch: { state: next.state, card, ...(sameFailureAs ? { sameFailureAs } : {}) }, details: { state: next.state } };
  },
};
