import type { RcaResult } from './analysis.js';

/** Below this the cause is treated as unknown whatever the text says. */
export const UNDETERMINED_CONFIDENCE = 0.2;

/** An RCA that names no cause: too little confidence, or a text that says it could not tell. Policy, never the model's call. */
export function isUndetermined(rca: Pick<RcaResult, 'confidence' | 'rootCause'>): boolean {
  return rca.confidence < UNDETERMINED_CONFIDENCE || /^\s*(undetermined|unknown|could not be determined)/i.test(rca.rootCause);
}
