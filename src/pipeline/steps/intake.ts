import { presentIncidentCard } from '../../presenters/incident-card.js';
import type { Step } from '../step.js';

/** Posts the card early (once per incident, by key) so on-call sees Medic at work. */
export const intakeStep: Step = {
  name: 'intake',
  async run(incident, deps) {
    // With a delivery job, the card is posted once this step is persisted (see runAnalysis).
    if (deps.requestCard) return { patch: {}, details: { service: incident.service, severity: incident.severity } };
    const stats = await deps.store.stats(incident.id);
    const card = incident.card ?? (await deps.chat.postCard(`card:${incident.id}`, presentIncidentCard({ incident, stats })));
    return { patch: { card }, details: { service: incident.service, severity: incident.severity } };
  },
};
