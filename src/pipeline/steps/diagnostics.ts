import type { Diagnostics } from '../../domain/incident.js';
import { presentDiagnosticsReply } from '../../presenters/card-intents.js';
import type { Step } from '../step.js';

/**
 * The recommendation's actions, validated by the gateway; READ_ONLY diagnostics run now and their
 * (redacted) output goes to the card's thread. Nothing else runs here: MUTATING and DESTRUCTIVE
 * actions wait on the card for a human. No proposal, nothing recorded.
 */
export const diagnosticsStep: Step = {
  name: 'diagnostics',
  async run(incident, deps) {
    const intents = incident.recommendation?.actions ?? [];
    const notes = incident.recommendation?.actionNotes ?? [];
    if (intents.length === 0 && notes.length === 0) return { patch: {}, details: { proposed: 0 } };
    const diagnostics: Diagnostics = deps.runDiagnostics
      ? await deps.runDiagnostics({ incidentId: incident.id, intents, notes })
      : { actions: [], notes: [...notes, 'Operational actions are not configured here; the proposals were not validated.'].slice(0, 15) };
    const ran = diagnostics.actions.filter((a) => a.outcome);
    // Keyed by round: a retried step does not post twice, a re-analysis posts its own results.
    // A delivery: kept until the card is posted and Slack takes it, so a failing Slack never fails the analysis.
    if (ran.length > 0) await deps.requestReply(incident.id, `diagnostics:${incident.id}:${incident.round}`, presentDiagnosticsReply(incident.id, ran));
    return {
      patch: { diagnostics },
      details: { proposed: intents.length, kept: diagnostics.actions.length, ran: ran.map((a) => `${a.tool}:${a.outcome?.status ?? ''}`) },
    };
  },
};
