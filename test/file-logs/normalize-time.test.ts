import { describe, expect, it } from 'vitest';
import { normalizeTime } from '../../src/adapters/file-logs/parse-entry.js';

/** What a canonical time normalizes to by the full round trip, the reference of the fast path. */
function byRoundTrip(value: string): string | undefined {
  const ms = Date.parse(value);
  if (!Number.isNaN(ms) && new Date(ms).toISOString() === value) return value;
  const date = new Date(value.replace(' ', 'T').replace(',', '.'));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

describe('normalizeTime', () => {
  it('keeps a canonical time that is a real instant, and reads one that is not as Date does', () => {
    const cases = [
      '2026-11-30T09:00:00.000Z', '2026-12-31T23:59:59.999Z', '2024-02-29T12:00:00.000Z', '0000-01-01T00:00:00.000Z',
      '2026-02-30T10:00:00.000Z', '2025-02-29T00:00:00.000Z', '2026-04-31T08:00:00.000Z', '2026-13-01T00:00:00.000Z', '2026-00-10T00:00:00.000Z',
      '2026-11-30T24:00:00.000Z', '2026-11-30T10:60:00.000Z', '2026-11-30T10:00:60.000Z', '2026-11-30T99:99:99.999Z', '2026-11-32T00:00:00.000Z',
    ];
    for (const value of cases) expect([value, normalizeTime(value)]).toEqual([value, byRoundTrip(value)]);
  });

  it('answers as the round trip does for many times, each day checked once', () => {
    let seed = 42;
    const next = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    for (let i = 0; i < 5_000; i++) {
      const value = `20${pad(next(100))}-${pad(next(14))}-${pad(next(33))}T${pad(next(26))}:${pad(next(62))}:${pad(next(62))}.${pad(next(1000), 3)}Z`;
      expect([value, normalizeTime(value)]).toEqual([value, byRoundTrip(value)]);
    }
  });

  it('still reads epoch numbers and other forms', () => {
    expect(normalizeTime('1796032800')).toBe('2026-11-30T10:00:00.000Z');
    expect(normalizeTime('2026-11-30 09:00:00,5')).toBe(new Date('2026-11-30T09:00:00.5').toISOString());
    expect(normalizeTime('not a time')).toBeUndefined();
  });
});
