/**
 * When an RCA earns a fix proposal, and when an RCA counts as "undetermined". Both are policy in
 * code, never the model's call: a model that says "fix it" about an unknown cause is overruled.
 */
import type { RcaResult } from '../domain/analysis.js';
import type { Severity } from '../domain/event.js';
import { isUndetermined } from '../domain/undetermined-cause.js';

export interface FixPolicy {
  minConfidence: number;
  excludedSeverities: Severity[];
}

export const DEFAULT_FIX_POLICY: FixPolicy = { minConfidence: 0.5, excludedSeverities: ['info', 'debug'] };

export { isUndetermined, UNDETERMINED_CONFIDENCE } from '../domain/undetermined-cause.js';

/** Undefined when eligible, otherwise the reason to show on the card. */
export function fixIneligibility(rca: RcaResult, policy: FixPolicy = DEFAULT_FIX_POLICY): string | undefined {
  if (isUndetermined(rca)) return 'No fix proposed: the root cause is undetermined; investigate first.';
  if (rca.confidence < policy.minConfidence) {
    return `No fix proposed: confidence ${Math.round(rca.confidence * 100)}% is below the ${Math.round(policy.minConfidence * 100)}% needed (MEDIC_FIX_MIN_CONFIDENCE).`;
  }
  if (policy.excludedSeverities.includes(rca.severity)) {
    return `No fix proposed: severity ${rca.severity} is excluded from fixes (MEDIC_FIX_EXCLUDED_SEVERITIES).`;
  }
  return undefined;
}
