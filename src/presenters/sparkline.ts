import { rateSeries, type EventRate } from '../domain/event-rate.js';

const MINUTE_MS = 60_000;
/** The line never looks further back than a day: an older start is cut there. */
export const MAX_SPAN_MS = 24 * 60 * MINUTE_MS;
export const MIN_SLOTS = 12;
/** 20 block characters and the peak fit one line of a card's half-width field column. */
export const MAX_SLOTS = 20;
/** Slot sizes in minutes: a slot only ever changes to the next of these, so the line stays put between renders. */
const SLOT_MINUTES = [1, 2, 5, 10, 15, 30, 60, 90] as const;
/** A slot with no event sits on the baseline; any event lifts it at least one step, however small next to the peak. */
const ZERO = '▁';
const LEVELS = ['▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;

export interface SparklineSeries {
  /** One character per slot, oldest first. */
  line: string;
  counts: number[];
  slotMs: number;
  /** The start of the first slot and the end of the last (ms). */
  startMs: number;
  endMs: number;
  /** The busiest minute inside the span (events in that one minute). */
  peakPerMinute: number;
}

/**
 * The family's events as a line of block characters, from its first event (at most a day back)
 * to `nowMs`, in 12 to 20 slots of a whole number of minutes. The slots are aligned to their own
 * size, so two renders within a slot draw the same line until the counts move.
 */
export function sparklineSeries(rate: EventRate, nowMs: number, firstMs?: number): SparklineSeries {
  if (!Number.isFinite(nowMs)) throw new RangeError(`sparkline: now must be a time, not ${nowMs}`);
  const first = firstMs !== undefined && Number.isFinite(firstMs) ? firstMs : earliestMs(rate) ?? nowMs;
  const span = Math.min(MAX_SPAN_MS, Math.max(0, nowMs - first));
  // One slot of slack: aligning the first and the last slot to the slot size may add one.
  const slotMinutes = SLOT_MINUTES.find((m) => span <= m * MINUTE_MS * (MAX_SLOTS - 1)) ?? 90;
  const slotMs = slotMinutes * MINUTE_MS;
  // The last slot is the one holding `now`; rateSeries ends its span after the minute it is given.
  const end = Math.floor(nowMs / slotMs) * slotMs + slotMs;
  const slots = Math.min(MAX_SLOTS, Math.max(MIN_SLOTS, (end - Math.floor((nowMs - span) / slotMs) * slotMs) / slotMs));
  const series = rateSeries(rate, end - MINUTE_MS, slotMs * slots, slots);
  const max = Math.max(0, ...series.counts);
  const line = series.counts.map((n) => (n <= 0 || max === 0 ? ZERO : LEVELS[Math.min(LEVELS.length - 1, Math.ceil((n / max) * LEVELS.length) - 1)])).join('');
  let peakPerMinute = 0;
  for (const [key, n] of Object.entries(rate)) {
    const at = Date.parse(`${key}:00.000Z`);
    if (Number.isFinite(at) && at >= series.startMs && at < end && n > peakPerMinute) peakPerMinute = n;
  }
  return { line, counts: series.counts, slotMs, startMs: series.startMs, endMs: end, peakPerMinute };
}

/**
 * "▁▂▇█▅▁ peak 120/min · 6 h": the card's one-line picture of the event rate. A family
 * quiet over the whole span says so, "none in 26 h", with no line. Undefined when no minute was counted
 * at all (an incident older than the rate counter), so the card shows nothing rather than a
 * line claiming silence.
 */
export function presentSparkline(rate: EventRate | undefined, nowMs: number, firstMs?: number): string | undefined {
  if (!rate || Object.keys(rate).length === 0) return undefined;
  const series = sparklineSeries(rate, nowMs, firstMs);
  const span = presentSpan(series.endMs - series.startMs);
  // A flat line pictures nothing: a quiet span is said in words, short enough to follow the count.
  if (series.peakPerMinute === 0) return `none in ${span}`;
  return `${series.line} peak ${series.peakPerMinute}/min · ${span}`;
}

/** "40 min", "6.5 h", "26 h". */
export function presentSpan(ms: number): string {
  const minutes = Math.round(ms / MINUTE_MS);
  if (minutes < 120) return `${minutes} min`;
  const hours = minutes / 60;
  return `${hours < 10 ? Math.round(hours * 10) / 10 : Math.round(hours)} h`;
}

function earliestMs(rate: EventRate): number | undefined {
  let earliest: string | undefined;
  for (const key of Object.keys(rate)) if (earliest === undefined || key < earliest) earliest = key;
  return earliest === undefined ? undefined : Date.parse(`${earliest}:00.000Z`);
}
