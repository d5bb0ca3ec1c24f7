/** Pure helpers shared by the log sources' deploy-marker reads. */
import { ErrorCode, MedicError } from './errors.js';

/** The longest line a deploy marker carries (the thread quotes it). */
export const MAX_HIT_LINE = 500;

export function sinceMsOf(sinceIso: string): number {
  const ms = Date.parse(sinceIso);
  if (!Number.isFinite(ms)) throw new MedicError(ErrorCode.ValidationFailed, `Not a time: ${JSON.stringify(sinceIso.slice(0, 40))} (expected ISO 8601).`);
  return ms;
}

/** The first line of a (possibly multi-line) log record, capped. */
export function firstLineOf(text: string): string {
  const first = text.split('\n', 1)[0] ?? '';
  return first.length > MAX_HIT_LINE ? `${first.slice(0, MAX_HIT_LINE)}…` : first;
}
