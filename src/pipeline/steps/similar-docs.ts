import type { Step } from '../step.js';

/** Documented error families near this one; a failing store means less evidence, not a failure. */
export const similarDocsStep: Step = {
  name: 'similar-docs',
  async run(incident, deps) {
    try {
      const docs = await deps.findSimilarDocs({ event: incident.firstEvent, template: incident.title, limit: deps.settings.similarDocs });
      return { patch: { similarDocs: docs }, details: { found: docs.length, top: docs[0]?.id } };
    } catch (error) {
      deps.logger.warn({ incidentId: incident.id, err: error }, 'similar docs unavailable');
      return { patch: { similarDocs: [] }, details: { found: 0, error: error instanceof Error ? error.message : String(error) } };
    }
  },
};
