import { z } from 'zod';
import { ErrorCode, MedicError } from '../../domain/errors.js';

/**
 * What the Splunk source remembers between polls: the highest `_indextime` it has handed over
 * (Splunk's clock, so local clock skew cannot open a gap) and the ids already handed over inside
 * the overlap window, so the re-read overlap is not handed over twice.
 */
const SplunkCheckpoint = z.object({
  v: z.literal(1),
  indexTime: z.number().nonnegative().optional(),
  seen: z.array(z.string()).default([]),
});
export type SplunkCheckpoint = z.infer<typeof SplunkCheckpoint>;

/** Enough for the overlap of a busy source; beyond it the incident store's dedupe still holds. */
export const MAX_SEEN = 5_000;

export function decodeCheckpoint(text: string | undefined): SplunkCheckpoint {
  if (text === undefined || text === '') return { v: 1, seen: [] };
  try {
    return SplunkCheckpoint.parse(JSON.parse(text));
  } catch {
    throw new MedicError(ErrorCode.ValidationFailed, 'The stored Splunk poll checkpoint is unreadable; delete the key <prefix>checkpoint:splunk in Redis to restart from SPLUNK_INITIAL_LOOKBACK_S.');
  }
}

export function encodeCheckpoint(checkpoint: SplunkCheckpoint): string {
  return JSON.stringify(checkpoint);
}

/** Ids of rows indexed within the overlap below the new checkpoint, newest first, bounded. */
export function seenWithin(rows: { id: string; indexTime: number | undefined }[], indexTime: number | undefined, overlapS: number): string[] {
  if (indexTime === undefined) return [];
  return rows
    .filter((r) => r.indexTime !== undefined && r.indexTime >= indexTime - overlapS)
    .sort((a, b) => (b.indexTime ?? 0) - (a.indexTime ?? 0))
    .slice(0, MAX_SEEN)
    .map((r) => r.id);
}
