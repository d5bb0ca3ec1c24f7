import type { Step } from '../step.js';
import { incidentDisplayTitle } from '../../domain/display-title.js';

/**
 * Routes the incident and titles it before its first card, which the delivery job posts early
 * (once per incident, by key) so on-call sees Medic at work — in the channel the service catalog
 * gives the incident's service, and saying so when the service is unknown.
 */
export const intakeStep: Step = {
  name: 'intake',
  async run(current, deps) {
    const route = current.route ?? deps.routeFor?.(current.service);
    // The title with the values the events had, from the samples the store keeps, before the first card.
    const samples = await deps.store.recentEvents(current.id);
    const displayTitle = incidentDisplayTitle(current, samples.map((event) => event.message));
    const incident = { ...current, displayTitle, ...(route ? { route } : {}) };
    // The card is posted once this step is persisted (see runAnalysis).
    // The first event's log time is recorded here, when the incident's story starts (the timeline reads it).
    const details = { service: incident.service, severity: incident.severity, firstEventAt: incident.firstEvent.time, ...(route ? { catalogService: route.service, known: route.known, channel: route.channel } : {}) };
    return { patch: { displayTitle, ...(route ? { route } : {}) }, details };
  },
};
