import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { minuteKey, type EventRate } from '../../src/domain/event-rate.js';
import { chartData, chartFontFiles, createEchartsRateChart } from '../../src/adapters/charts/echarts-rate-chart.js';

const NOW = Date.parse('2026-12-02T14:45:00.000Z');
const MIN = 60_000;
const DEPLOY = '2026-12-02T14:10:00.000Z';
const MERGE = '2026-12-02T14:02:00.000Z';

function rateOf(perMinute: (minutesAgo: number) => number, minutes = 80): EventRate {
  const rate: EventRate = {};
  for (let ago = minutes; ago >= 0; ago--) {
    const n = perMinute(ago);
    if (n > 0) rate[minuteKey(NOW - ago * MIN)] = n;
  }
  return rate;
}

/** Width and height from the PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('the before/after chart of a verification', () => {
  const chart = createEchartsRateChart({ width: 600, height: 300, scale: 2 });
  const storm = rateOf((ago) => (ago > 35 ? 90 : 0)); // events until the deploy, quiet after

  it('renders a PNG of the asked size, its text saying what it shows', async () => {
    const image = await chart.render({ title: 'PaymentTimeoutException: gateway did not answer', rate: storm, deployedAt: DEPLOY, mergedAt: MERGE, windowMinutes: 30, nowMs: NOW });
    const png = Buffer.from(image.pngBase64, 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(pngSize(png)).toEqual({ width: 1200, height: 600 });
    expect(image.filename).toBe('verification.png');
    expect(image.title).toContain('PaymentTimeoutException');
    expect(image.altText).toMatch(/^Events per min of PaymentTimeoutException: gateway did not answer: \d+ before the deploy at 14:10 UTC \(peak 90\), 0 after it; the window ends at 14:40 UTC\.$/);
  }, 30_000);

  it('draws different pictures for different data', async () => {
    const input = { title: 'boom', deployedAt: DEPLOY, mergedAt: MERGE, windowMinutes: 30, nowMs: NOW };
    const quiet = await chart.render({ ...input, rate: storm });
    const failing = await chart.render({ ...input, rate: rateOf(() => 40) });
    expect(failing.pngBase64).not.toBe(quiet.pngBase64);
    expect(failing.altText).toMatch(/, \d+ after it;/);
    expect(failing.altText).not.toContain(', 0 after it');
  }, 30_000);

  it('keeps secrets in the title out of the picture’s text', async () => {
    const image = await chart.render({ title: 'auth failed password=hunter2secret for db', rate: storm, deployedAt: DEPLOY, windowMinutes: 30, nowMs: NOW });
    expect(`${image.title} ${image.altText}`).not.toContain('hunter2secret');
  }, 30_000);

  it('draws its text with the bundled font alone, so a machine without system fonts still gets labels', async () => {
    // dejavu-fonts-ttf is a dependency: its DejaVu Sans is always among the chart's fonts.
    expect(chartFontFiles().some((file) => file.endsWith(join('dejavu-fonts-ttf', 'ttf', 'DejaVuSans.ttf')))).toBe(true);
    expect(chartFontFiles(['/no/such/font.ttf'])).not.toContain('/no/such/font.ttf');
    const input = { title: 'boom', rate: storm, deployedAt: DEPLOY, windowMinutes: 30, nowMs: NOW };
    const bundledOnly = await createEchartsRateChart({ width: 600, height: 300, loadSystemFonts: false }).render(input);
    const noFont = await createEchartsRateChart({ width: 600, height: 300, loadSystemFonts: false, bundledFont: false }).render(input);
    // Without any font the labels are simply missing: fewer distinct pixels, a smaller PNG.
    expect(Buffer.from(bundledOnly.pngBase64, 'base64').length).toBeGreaterThan(Buffer.from(noFont.pngBase64, 'base64').length);
  }, 30_000);

  it('refuses an input it cannot draw', async () => {
    await expect(chart.render({ title: 'x', rate: storm, windowMinutes: 0, nowMs: NOW })).rejects.toThrow(/window must be positive/);
    await expect(chart.render({ title: 'x', rate: storm, windowMinutes: 30, nowMs: Number.NaN })).rejects.toThrow(/needs a time/);
  });
});

describe('the chart’s bars', () => {
  it('keeps a storm long before the fix in the picture, dated once it spans days', () => {
    const old = { [minuteKey(Date.parse('2026-11-30T08:09:00.000Z'))]: 5, [minuteKey(Date.parse('2026-11-30T09:49:00.000Z'))]: 2 };
    const data = chartData({ title: 't', rate: old, deployedAt: DEPLOY, windowMinutes: 30, nowMs: Date.parse('2026-12-02T14:41:00.000Z') });
    expect(data.totals.before).toBe(7);
    expect(data.labels[0]).toMatch(/^11-30 0\d:\d\d$/);
    expect(data.labels.length).toBeLessThanOrEqual(180);
    // A week at most: a storm older than that is left out rather than squeezed into a few bars.
    const ancient = chartData({ title: 't', rate: { '2026-11-01T08:00': 9 }, deployedAt: DEPLOY, windowMinutes: 30, nowMs: Date.parse('2026-12-02T14:41:00.000Z') });
    expect(ancient.totals.before).toBe(0);
  });

  it('splits the minutes at the deploy and spans from before it to the window’s end', () => {
    const data = chartData({ title: 't', rate: rateOf((ago) => (ago >= 25 ? 2 : 0)), deployedAt: DEPLOY, mergedAt: MERGE, windowMinutes: 30, nowMs: Date.parse('2026-12-02T14:20:00.000Z') });
    expect(data.slotMinutes).toBe(1);
    // From the family's first counted minute (80 min before NOW), since it lies before the usual lead.
    expect(data.labels[0]).toBe('13:25');
    expect(data.labels.at(-1)).toBe('14:40');
    const firstAfter = data.after.findIndex((n) => n !== null);
    expect(data.labels[firstAfter]).toBe('14:10');
    expect(data.before.slice(firstAfter).every((n) => n === null)).toBe(true);
    // Events until 14:20: 14:10 to 14:20 counted after the deploy (eleven minutes), the rest before.
    expect(data.totals.after).toBe(22);
  });

  it('groups minutes into bars past three hours, so a day-long watch stays readable', () => {
    const data = chartData({ title: 't', rate: {}, deployedAt: DEPLOY, windowMinutes: 24 * 60, nowMs: NOW });
    expect(data.labels.length).toBeLessThanOrEqual(180);
    expect(data.slotMinutes).toBeGreaterThan(1);
  });
});
