import { describe, expect, it } from 'vitest';
import { minuteKey, type EventRate } from '../../src/domain/event-rate.js';
import { MAX_SLOTS, MIN_SLOTS, presentSparkline, sparklineSeries } from '../../src/presenters/sparkline.js';
import { presentIncidentCard } from '../../src/presenters/incident-card.js';
import { presentChannelCard } from '../../src/presenters/channel-card.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';

const NOW = Date.parse('2026-12-02T14:50:30.000Z');
const MIN = 60_000;

/** Events `minutesAgo` → count. */
function rateOf(entries: [minutesAgo: number, count: number][]): EventRate {
  const rate: EventRate = {};
  for (const [ago, n] of entries) rate[minuteKey(NOW - ago * MIN)] = (rate[minuteKey(NOW - ago * MIN)] ?? 0) + n;
  return rate;
}

describe('the event-rate sparkline', () => {
  it('draws a burst over six hours in at most 24 slots, its peak per minute and its span', () => {
    const rate = rateOf([[360, 2], [300, 10], [200, 120], [190, 60], [30, 5]]);
    const series = sparklineSeries(rate, NOW, NOW - 360 * MIN);
    expect(series.line).toHaveLength(series.counts.length);
    expect(series.counts.length).toBeGreaterThanOrEqual(MIN_SLOTS);
    expect(series.counts.length).toBeLessThanOrEqual(MAX_SLOTS);
    // Every event is inside the span, none lost at its edges.
    expect(series.counts.reduce((a, b) => a + b, 0)).toBe(197);
    expect(series.line).toContain('█');
    const text = presentSparkline(rate, NOW, NOW - 360 * MIN);
    expect(text).toMatch(/^[▁▂▃▄▅▆▇█]{12,20} peak 120\/min · 6\.5 h$/);
  });

  it('lifts a slot with one event off the baseline, even beside a peak of thousands', () => {
    const rate = rateOf([[50, 1], [10, 5_000]]);
    const { line, counts } = sparklineSeries(rate, NOW, NOW - 50 * MIN);
    const small = counts.findIndex((n) => n === 1);
    expect(small).toBeGreaterThanOrEqual(0);
    expect(line[small]).not.toBe('▁');
    expect(line[counts.findIndex((n) => n === 5_000)]).toBe('█');
    expect(line[counts.findIndex((n) => n === 0)]).toBe('▁');
  });

  it('uses minute slots for a young incident and never fewer than 12 slots', () => {
    const rate = rateOf([[3, 4], [0, 9]]);
    const series = sparklineSeries(rate, NOW, NOW - 3 * MIN);
    expect(series.slotMs).toBe(MIN);
    expect(series.counts).toHaveLength(12);
    expect(series.counts.at(-1)).toBe(9);
    expect(presentSparkline(rate, NOW, NOW - 3 * MIN)).toMatch(/peak 9\/min · 12 min$/);
  });

  it('looks back about a day at most, in 90-minute slots', () => {
    const rate = rateOf([[3 * 24 * 60, 50], [60, 7]]);
    const series = sparklineSeries(rate, NOW, NOW - 3 * 24 * 60 * MIN);
    expect(series.slotMs).toBe(90 * MIN);
    expect(series.counts).toHaveLength(17);
    expect(series.counts.reduce((a, b) => a + b, 0)).toBe(7);
    expect(presentSparkline(rate, NOW, NOW - 3 * 24 * 60 * MIN)).toMatch(/^[▁▂▃▄▅▆▇█]{17} peak 7\/min · 26 h$/);
  });

  it('says in words, with no flat line, that the family was quiet over the span, and is absent without any count', () => {
    const rate = rateOf([[30 * 60, 40]]);
    expect(presentSparkline(rate, NOW, NOW - 30 * 60 * MIN)).toBe('none in 26 h');
    expect(presentSparkline({}, NOW)).toBeUndefined();
    expect(presentSparkline(undefined, NOW)).toBeUndefined();
  });

  it('draws the same line for the same counts within a slot, and a new one when the count moves', () => {
    const rate = rateOf([[300, 10], [100, 30]]);
    const first = NOW - 300 * MIN;
    expect(presentSparkline(rate, NOW, first)).toBe(presentSparkline(rate, NOW + 20_000, first));
    const more = { ...rate, [minuteKey(NOW)]: 500 };
    expect(presentSparkline(more, NOW, first)).not.toBe(presentSparkline(rate, NOW, first));
  });

  it('refuses a time that is not one', () => {
    expect(() => sparklineSeries({}, Number.NaN)).toThrow(/now must be a time/);
  });
});

describe('the sparkline on the card', () => {
  const incident = buildAnalysedIncident({ firstEvent: { ...buildAnalysedIncident().firstEvent, time: new Date(NOW - 120 * MIN).toISOString() } });
  const stats = { count: 130, firstSeen: new Date(NOW - 120 * MIN).toISOString(), lastSeen: new Date(NOW - 5 * MIN).toISOString() };
  const fieldsOf = (blocks: Record<string, unknown>[]) => JSON.stringify(blocks.find((b) => b.block_id === 'medic_fields'));

  it('sits under the events count in the summary, and the card changes when new events move it', () => {
    const rate = rateOf([[120, 10], [60, 100], [5, 20]]);
    const card = presentChannelCard({ incident, stats, rate, nowMs: NOW });
    const fields = fieldsOf(card.blocks);
    expect(fields).toContain('*Events*\\n130 · ');
    expect(fields).toMatch(/UTC\\n[▁▂▃▄▅▆▇█]{12,20} peak 100\/min · 2\.2 h/);
    const later = presentChannelCard({ incident, stats: { ...stats, count: 190 }, rate: { ...rate, [minuteKey(NOW)]: 60 }, nowMs: NOW });
    expect(JSON.stringify(later.blocks)).not.toBe(JSON.stringify(card.blocks));
  });

  it('leaves the card as it was without a rate (an incident older than the counter)', () => {
    expect(fieldsOf(presentIncidentCard({ incident, stats }).blocks)).not.toMatch(/[▁█]|peak/);
  });
});
