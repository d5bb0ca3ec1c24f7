/**
 * A family's events counted per minute of their log time: `{ "2026-12-02T14:10": 37, … }`, the
 * key being the first 16 characters of the event's UTC time. The ingest counts them in the same
 * script that counts the events, so the rate never disagrees with the count.
 */
export type EventRate = Record<string, number>;

const MINUTE_MS = 60_000;

export function minuteKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16);
}

function minuteMs(key: string): number {
  return Date.parse(`${key}:00.000Z`);
}

/** Events counted in the minutes from `fromIso`'s minute on (its own minute included). */
export function eventsFrom(rate: EventRate, fromIso: string): number {
  const from = minuteKey(Date.parse(fromIso));
  let sum = 0;
  for (const [key, n] of Object.entries(rate)) if (key >= from) sum += n;
  return sum;
}

/**
 * The counts of `slots` equal slots ending at `endMs`, oldest first, over `spanMs`; the slot is
 * at least a minute. Buckets outside the span are left out.
 */
export function rateSeries(rate: EventRate, endMs: number, spanMs: number, slots: number): { counts: number[]; slotMs: number; startMs: number } {
  const slotMs = Math.max(MINUTE_MS, Math.ceil(spanMs / slots / MINUTE_MS) * MINUTE_MS);
  const end = Math.floor(endMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
  const startMs = end - slotMs * slots;
  const counts = new Array<number>(slots).fill(0);
  for (const [key, n] of Object.entries(rate)) {
    const at = minuteMs(key);
    if (!Number.isFinite(at) || at < startMs || at >= end) continue;
    const slot = Math.floor((at - startMs) / slotMs);
    counts[slot] = (counts[slot] ?? 0) + n;
  }
  return { counts, slotMs, startMs };
}
