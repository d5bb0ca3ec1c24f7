/**
 * Wraps the model analyst so a failing model (after its own retries), a broken answer or an
 * exhausted token budget degrades to the offline analysis with a note, instead of failing the
 * incident. The reason travels in the RCA summary, the recommendation and the fix note, which is
 * what the card shows.
 */
import { asMedicError, ErrorCode, type MedicError } from '../domain/errors.js';
import type { Analyst } from '../ports/analyst.js';
import { offlineRca, offlineRecommendation } from './offline-analyst.js';

export interface FallbackOptions {
  /** For logs and metrics: which step degraded and why. */
  onDegrade?: (step: 'rca' | 'recommend' | 'fix', error: MedicError) => void;
}

const OFFLINE = { analyst: 'offline', tokens: 0 } as const;

/** The operator-facing reason: coded messages are written for operators and carry no secrets. */
export function degradeReason(error: MedicError): string {
  const what = error.code === ErrorCode.BudgetExhausted ? 'LLM token budget exhausted' : 'LLM unavailable';
  return `${what}: ${error.message}`.slice(0, 300);
}

export function createFallbackAnalyst(primary: Analyst, offline: Analyst, options: FallbackOptions = {}): Analyst {
  const degrade = (step: 'rca' | 'recommend' | 'fix', thrown: unknown): string => {
    const error = asMedicError(thrown);
    options.onDegrade?.(step, error);
    return degradeReason(error);
  };
  return {
    name: `${primary.name}+${offline.name}`,
    async rca(input) {
      try {
        return await primary.rca(input);
      } catch (error) {
        const reason = degrade('rca', error);
        const fallback = await offline.rca(input);
        return { ...fallback, rca: offlineRca(input, reason), provenance: { ...fallback.provenance, ...OFFLINE } };
      }
    },
    async recommend(rca) {
      try {
        return await primary.recommend(rca);
      } catch (error) {
        const reason = degrade('recommend', error);
        return { recommendation: offlineRecommendation(rca, reason), provenance: { ...OFFLINE } };
      }
    },
    async proposeFix(input) {
      try {
        return await primary.proposeFix(input);
      } catch (error) {
        const reason = degrade('fix', error);
        // Never a fix from a failed answer: the note says why and nothing is drafted.
        return { note: `No fix proposed (${reason}).`, provenance: { ...OFFLINE } };
      }
    },
  };
}
