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
  /** Set when `seen` had to be trimmed: the overlap re-reads no further back than this. */
  floor: z.number().nonnegative().optional(),
});
export type SplunkCheckpoint = z.infer<typeof SplunkCheckpoint>;

/** Enough for the overlap of a busy source; beyond it the incident store's dedupe still holds. */
export const MAX_SEEN = 10_000;

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

/**
 * Ids of rows indexed within the overlap below the new checkpoint, newest first. When there are
 * more than `max`, the oldest are dropped and `floor` keeps the next poll from re-reading rows it
 * can no longer recognise (which, under a flood, would keep a capped poll from ever advancing).
 */
export function seenWithin(
  rows: { id: string; indexTime: number | undefined }[],
  indexTime: number | undefined,
  overlapS: number,
  max = MAX_SEEN,
): { seen: string[]; floor?: number } {
  if (indexTime === undefined) return { seen: [] };
  const recent = rows
    .filter((r): r is { id: string; indexTime: number } => r.indexTime !== undefined && r.indexTime >= indexTime - overlapS)
    .sort((a, b) => b.indexTime - a.indexTime);
  const kept = recent.slice(0, max);
  const oldest = kept[kept.length - 1];
  return recent.length > max && oldest ? { seen: kept.map((r) => r.id), floor: oldest.indexTime } : { seen: kept.map((r) => r.id) };
}
