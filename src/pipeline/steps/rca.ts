import { ErrorCode, MedicError } from '../../domain/errors.js';
import { recordLlmUse } from '../record-llm-use.js';
import type { Step } from '../step.js';

/** Cited evidence the analyst was never shown is dropped here too, whatever the analyst did. */
const UNSUPPORTED_CONFIDENCE_CAP = 0.3;

export const rcaStep: Step = {
  name: 'rca',
  async run(incident, deps) {
    if (!incident.logs) throw new MedicError(ErrorCode.Internal, `Incident ${incident.id} reached rca without a log window.`);
    const { rca, provenance, context } = await deps.analystFor(incident.id).rca({
      event: incident.firstEvent,
      title: incident.title,
      logs: incident.logs,
      similarDocs: incident.similarDocs ?? [],
      recentChanges: incident.recentChanges ?? [],
      suspectCommits: incident.suspectCommits ?? [],
      review: incident.review,
    });
    const shown = new Set([...incident.logs.entries.map((e) => e.id), ...(incident.similarDocs ?? []).map((d) => d.id)]);
    const evidenceIds = rca.evidenceIds.filter((id) => shown.has(id));
    const confidence = evidenceIds.length === 0 ? Math.min(rca.confidence, UNSUPPORTED_CONFIDENCE_CAP) : rca.confidence;
    recordLlmUse(deps.metrics, 'rca', provenance);
    return {
      patch: {
        rca: { ...rca, evidenceIds, confidence },
        analysisContext: context,
        provenance: { ...incident.provenance, rca: provenance },
        tokens: { ...incident.tokens, rca: provenance.tokens },
      },
      details: { analyst: provenance.analyst, confidence, evidence: evidenceIds.length },
    };
  },
};
