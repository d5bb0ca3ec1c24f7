import { ErrorCode, MedicError } from '../../domain/errors.js';
import { recordLlmUse } from '../record-llm-use.js';
import type { Step } from '../step.js';

/**
 * The model drafts a one-file change; code decides whether it becomes a proposal. Without a
 * proposal the incident is reported with the reason, never half-fixed.
 */
export const fixProposalStep: Step = {
  name: 'fix-proposal',
  async run(incident, deps) {
    const { rca, recommendation } = incident;
    if (!rca || !recommendation) throw new MedicError(ErrorCode.Internal, `Incident ${incident.id} reached fix-proposal without an RCA.`);
    const candidates = await deps.searchCode({ incident });
    const { draft, note, provenance } = await deps.analystFor(incident.id).proposeFix({ event: incident.firstEvent, rca, recommendation, candidates, review: incident.review });
    recordLlmUse(deps.metrics, 'fix', provenance);
    const base = { provenance: { ...incident.provenance, fix: provenance }, tokens: { ...incident.tokens, fix: provenance.tokens } };
    if (!draft) {
      return { patch: { ...base, proposal: undefined, proposalNote: note ?? 'No fix proposed.' }, details: { proposed: false, note } };
    }
    const validated = deps.validateFix(draft, candidates);
    if (typeof validated === 'string') {
      return { patch: { ...base, proposal: undefined, proposalNote: `Fix refused by validation: ${validated}` }, details: { proposed: false, refused: validated } };
    }
    return {
      patch: { ...base, proposal: validated, proposalNote: undefined },
      details: { proposed: true, file: validated.file, contentHash: validated.contentHash },
    };
  },
};
