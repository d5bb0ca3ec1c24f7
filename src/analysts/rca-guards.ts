/**
 * Code-side checks on the model's RCA: it may only cite what it was shown, and its confidence is
 * capped by how much evidence actually survives that filter.
 */
import type { RcaResult } from '../domain/analysis.js';

/** A cause that cites nothing it was shown is a guess. */
export const NO_EVIDENCE_CAP = 0.3;
/** An empty log window leaves only the event and the docs. */
export const EMPTY_WINDOW_CAP = 0.45;
/** A single cited line and no documented family is thin. */
export const SINGLE_LINE_CAP = 0.6;

export interface GuardInput {
  allowedIds: Set<string>;
  logLines: number;
  docIds: Set<string>;
}

export interface GuardOutcome {
  rca: RcaResult;
  droppedIds: string[];
  cappedBy?: string;
}

export function guardRca(rca: RcaResult, input: GuardInput): GuardOutcome {
  const unique = [...new Set(rca.evidenceIds.map((id) => id.trim()))];
  const evidenceIds = unique.filter((id) => input.allowedIds.has(id));
  const droppedIds = unique.filter((id) => !input.allowedIds.has(id));
  const logEvidence = evidenceIds.filter((id) => id.startsWith('log-')).length;
  const docEvidence = evidenceIds.filter((id) => input.docIds.has(id)).length;

  let cap = 1;
  let cappedBy: string | undefined;
  const capAt = (value: number, reason: string) => {
    if (value < cap) {
      cap = value;
      cappedBy = reason;
    }
  };
  if (evidenceIds.length === 0) capAt(NO_EVIDENCE_CAP, 'no cited evidence survived the filter');
  if (input.logLines === 0) capAt(EMPTY_WINDOW_CAP, 'the log window was empty');
  if (logEvidence === 1 && docEvidence === 0) capAt(SINGLE_LINE_CAP, 'a single cited log line');

  const confidence = Math.min(rca.confidence, cap);
  return {
    rca: { ...rca, evidenceIds, confidence },
    droppedIds,
    ...(confidence < rca.confidence && cappedBy ? { cappedBy } : {}),
  };
}
