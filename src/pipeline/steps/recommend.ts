import { ErrorCode, MedicError } from '../../domain/errors.js';
import { recordLlmUse } from '../record-llm-use.js';
import type { Step } from '../step.js';

/** A second call that sees only the RCA, so evidence text cannot steer the recommendation. */
export const recommendStep: Step = {
  name: 'recommend',
  async run(incident, deps) {
    if (!incident.rca) throw new MedicError(ErrorCode.Internal, `Incident ${incident.id} reached recommend without an RCA.`);
    const { recommendation, provenance } = await deps.analystFor(incident.id).recommend(incident.rca);
    recordLlmUse(deps.metrics, 'recommend', provenance);
    return {
      patch: { recommendation, provenance: { ...incident.provenance, recommend: provenance }, tokens: { ...incident.tokens, recommend: provenance.tokens } },
      details: { kind: recommendation.kind, analyst: provenance.analyst },
    };
  },
};
