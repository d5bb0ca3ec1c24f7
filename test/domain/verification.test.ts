import { describe, expect, it } from 'vitest';
import { eventsFrom, minuteKey, rateSeries } from '../../src/domain/event-rate.js';
import { isRegression, judge, ratePerHour, startVerification, type Verification } from '../../src/domain/verification.js';

const DEPLOY = '2026-12-02T14:10:00.000Z';
const watching: Verification = { ...startVerification('2026-12-02T13:00:00.000Z', { windowMinutes: 30 }), status: 'watching', deployedAt: DEPLOY };
const ms = (iso: string) => Date.parse(iso);

describe('the verdict after a deploy', () => {
  it('waits until the quiet window ends, then says verified only when no event is timed after the deploy', () => {
    expect(judge(watching, '2026-12-02T14:09:59.000Z', 0, ms('2026-12-02T14:30:00.000Z'))).toEqual({ kind: 'wait', untilMs: ms('2026-12-02T14:40:00.000Z') });
    expect(judge(watching, '2026-12-02T14:09:59.000Z', 0, ms('2026-12-02T14:40:00.000Z'))).toEqual({ kind: 'verified' });
    expect(judge(watching, undefined, 0, ms('2026-12-02T14:40:00.000Z'))).toEqual({ kind: 'verified' });
    expect(judge(watching, '2026-12-02T14:10:01.000Z', 0, ms('2026-12-02T14:40:00.000Z'))).toEqual({ kind: 'still_failing', eventsSince: 1 });
    expect(judge(watching, '2026-12-02T14:39:00.000Z', 34, ms('2026-12-02T14:41:00.000Z'))).toEqual({ kind: 'still_failing', eventsSince: 34 });
  });

  it('gives no verdict without a deploy', () => {
    const merged: Verification = { ...watching, deployedAt: undefined };
    expect(judge(merged, undefined, 0, ms('2026-12-09T00:00:00.000Z')).kind).toBe('wait');
  });

  it('calls an event after a verified deploy a regression, and nothing else', () => {
    const verified: Verification = { ...watching, status: 'verified' };
    expect(isRegression(verified, '2026-12-02T15:00:00.000Z')).toBe(true);
    expect(isRegression(verified, '2026-12-02T14:00:00.000Z')).toBe(false);
    expect(isRegression(watching, '2026-12-02T15:00:00.000Z')).toBe(false);
    expect(isRegression(undefined, '2026-12-02T15:00:00.000Z')).toBe(false);
  });

  it('reads the rate before as events per hour of the active span, a minute at least', () => {
    expect(ratePerHour(120, '2026-12-02T13:00:00.000Z', '2026-12-02T14:00:00.000Z')).toBe(120);
    expect(ratePerHour(60, '2026-12-02T13:00:00.000Z', '2026-12-02T13:30:00.000Z')).toBe(120);
    expect(ratePerHour(5, '2026-12-02T13:00:00.000Z', '2026-12-02T13:00:00.000Z')).toBe(300);
    expect(ratePerHour(0, '2026-12-02T13:00:00.000Z', '2026-12-02T14:00:00.000Z')).toBe(0);
  });
});

describe('per-minute event rates', () => {
  const rate = { '2026-12-02T14:08': 3, '2026-12-02T14:10': 5, '2026-12-02T14:11': 2, '2026-12-02T13:00': 7 };

  it('counts the events from a moment\'s minute on', () => {
    expect(eventsFrom(rate, DEPLOY)).toBe(7);
    expect(eventsFrom(rate, '2026-12-02T14:10:59.999Z')).toBe(7);
    expect(eventsFrom(rate, '2026-12-02T14:11:00.000Z')).toBe(2);
    expect(minuteKey(ms('2026-12-02T14:10:42.000Z'))).toBe('2026-12-02T14:10');
  });

  it('slots the minutes of a span ending now, oldest first, leaving out what lies outside', () => {
    const series = rateSeries(rate, ms('2026-12-02T14:11:30.000Z'), 6 * 60_000, 3);
    expect(series.slotMs).toBe(2 * 60_000);
    expect(series.counts).toEqual([0, 3, 7]);
    expect(series.counts.reduce((a, b) => a + b, 0)).toBe(10);
  });
});
