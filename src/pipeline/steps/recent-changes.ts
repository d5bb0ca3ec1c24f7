import type { Step } from '../step.js';

/** Code-search candidates, then the recent commits touching the suspects (untrusted text, like logs). */
export const recentChangesStep: Step = {
  name: 'recent-changes',
  async run(incident, deps) {
    try {
      const candidates = (await deps.searchCode({ incident })).map((c) => c.file);
      const changes = await deps.findRecentChanges({ event: incident.firstEvent, candidates, sinceDays: deps.settings.recentChangesDays });
      return { patch: { candidates, recentChanges: changes }, details: { candidates: candidates.length, commits: changes.length } };
    } catch (error) {
      deps.logger.warn({ incidentId: incident.id, err: error }, 'recent changes unavailable');
      return { patch: { candidates: [], recentChanges: [] }, details: { error: error instanceof Error ? error.message : String(error) } };
    }
  },
};
