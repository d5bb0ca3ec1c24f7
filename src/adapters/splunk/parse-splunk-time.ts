const EPOCH = /^\d{9,11}(\.\d+)?$/;
// `2026-11-30 10:00:00.123 UTC`, `2026-07-14 14:54:45.000 GMT`, `2026-11-30 10:00:00 +0100`
const SPACED = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:[.,]\d+)?)\s*(UTC|GMT|Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Splunk formats `_time` by the server's and user's time-zone settings, so several shapes arrive:
 * ISO-8601 with an offset, epoch seconds with a fraction, or a spaced form with a zone name.
 * Returns ISO-8601 UTC, or undefined when the value is not a time.
 */
export function parseSplunkTime(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  if (EPOCH.test(text)) return toIso(Number(text) * 1000);
  const spaced = SPACED.exec(text);
  if (spaced) {
    const zone = (spaced[3] ?? '').toUpperCase();
    const offset = zone === 'UTC' || zone === 'GMT' || zone === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
    return toIso(Date.parse(`${spaced[1]}T${(spaced[2] ?? '').replace(',', '.')}${offset}`));
  }
  // Only zoned ISO forms are accepted: a bare local time would silently shift by the host's zone.
  if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(text)) return undefined;
  return toIso(Date.parse(text));
}

function toIso(ms: number): string | undefined {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** `_indextime` as epoch seconds. */
export function parseIndexTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d+(\.\d+)?$/.test(value.trim())) return undefined;
  return Number(value);
}
