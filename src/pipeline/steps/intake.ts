import { presentIncidentCard } from '../../presenters/incident-card.js';
import type { Step } from '../step.js';

/**
 * Posts the card early (once per incident, by key) so on-call sees Medic at work — in the channel
 * the service catalog gives the incident's service, and saying so when the service is unknown.
 */
export const intakeStep: Step = {
  name: 'intake',
  async run(current, deps) {
    const route = current.route ?? deps.routeFor?.(current.service);
    const incident = route ? { ...current, route } : current;
    // With a delivery job, the card is posted once this step is persisted (see runAnalysis).
    if (deps.requestCard) return { patch: route ? { route } : {}, details: { service: incident.service, severity: incident.severity, ...(route ? { catalogService: route.service, known: route.known, channel: route.channel } : {}) } };
    const stats = await deps.store.stats(incident.id);
    const card = incident.card ?? (await deps.chat.postCard(`card:${incident.id}`, presentIncidentCard({ incident, stats }), route?.channel));
    return { patch: { card, ...(route ? { route } : {}) }, details: { service: incident.service, severity: incident.severity, ...(route ? { catalogService: route.service, known: route.known, channel: route.channel } : {}) } };
  },
};
