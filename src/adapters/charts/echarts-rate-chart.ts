import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import type { EChartsOption, init as InitChart } from 'echarts/types/dist/shared';
import { rateSeries } from '../../domain/event-rate.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { redactSecrets } from '../../domain/untrusted/redact.js';
import type { ChatImage } from '../../ports/chat.js';
import type { RateChart, RateChartInput } from '../../ports/rate-chart.js';

// ECharts' own declarations name their files without extensions, which NodeNext cannot follow from
// `echarts`; its self-contained `types/dist/shared` can. The runtime is the package's Node build.
const echarts = createRequire(import.meta.url)('echarts') as { init: typeof InitChart };

const MINUTE_MS = 60_000;
/** At most this many bars: past it, a bar holds several minutes. */
const MAX_BARS = 180;
const MAX_SPAN_MS = 7 * 86_400_000;
const BEFORE = '#d9534f';
const AFTER = '#2e8b57';
const FONT = 'DejaVu Sans';

export interface EchartsRateChartOptions {
  /** The chart's size in CSS pixels (default 900 × 380). */
  width?: number;
  height?: number;
  /** The PNG's pixels per CSS pixel (default 2: sharp on a high-density screen). */
  scale?: number;
  /** TTF/OTF files to draw the text with, in front of the bundled and system fonts. */
  fontFiles?: string[];
  /** Whether the machine's fonts are searched too (default true; false draws with the files alone). */
  loadSystemFonts?: boolean;
  /** Whether the bundled DejaVu Sans is used (default true; false only to see a machine with no font at all). */
  bundledFont?: boolean;
}

/**
 * The fonts the text is drawn with. resvg reads TTF/OTF only; a machine may have no system font
 * at all (a slim container), so a bundled DejaVu Sans (`dejavu-fonts-ttf`) is used when it is
 * a dependency, and the system's fonts are loaded as well.
 */
export function chartFontFiles(extra: readonly string[] = [], bundled = true): string[] {
  const files = [...extra];
  if (bundled) {
    try {
      const dir = dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json'));
      const file = join(dir, 'ttf', 'DejaVuSans.ttf');
      if (existsSync(file)) files.push(file);
    } catch {
      // not installed: the system's fonts only
    }
  }
  return files.filter((file) => existsSync(file));
}

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
/** A slot's label: the time of day, with the date once the chart spans more than a day. */
const stampOf = (spanMs: number) => (spanMs > 86_400_000 ? (ms: number) => new Date(ms).toISOString().slice(5, 16).replace('T', ' ') : hhmm);

interface ChartData {
  labels: string[];
  before: (number | null)[];
  after: (number | null)[];
  slotMinutes: number;
  startMs: number;
  slotMs: number;
  pivotMs: number;
  windowEndMs: number;
  totals: { before: number; after: number; peakBefore: number };
}

/** The bars: from a while before the deploy (at least the window, at least 30 min) to now or the window's end. */
export function chartData(input: RateChartInput): ChartData {
  if (!Number.isFinite(input.nowMs)) throw new MedicError(ErrorCode.ValidationFailed, 'The rate chart needs a time to end at (nowMs).');
  if (!(input.windowMinutes > 0)) throw new MedicError(ErrorCode.ValidationFailed, `The rate chart's window must be positive minutes, not ${input.windowMinutes}.`);
  const deploy = input.deployedAt ? Date.parse(input.deployedAt) : Number.NaN;
  const merge = input.mergedAt ? Date.parse(input.mergedAt) : Number.NaN;
  const pivotMs = Number.isFinite(deploy) ? deploy : Number.isFinite(merge) ? merge : input.nowMs;
  const windowEndMs = pivotMs + input.windowMinutes * MINUTE_MS;
  const lead = Math.max(30, input.windowMinutes) * MINUTE_MS;
  // From the family's first counted minute (a storm long before the fix stays in the picture), a week at most.
  const firstMinute = Math.min(...Object.keys(input.rate).map((key) => Date.parse(`${key}:00.000Z`)).filter(Number.isFinite));
  const earliest = Number.isFinite(firstMinute) ? Math.max(firstMinute, pivotMs - MAX_SPAN_MS) : Number.POSITIVE_INFINITY;
  const start = Math.min(pivotMs - lead, Number.isFinite(merge) ? merge - 10 * MINUTE_MS : Number.POSITIVE_INFINITY, earliest);
  const end = Math.max(input.nowMs, windowEndMs);
  // Both ends' own minutes included.
  const minutes = Math.ceil((end - start) / MINUTE_MS) + 1;
  const slotMinutes = Math.max(1, Math.ceil(minutes / MAX_BARS));
  const slots = Math.ceil(minutes / slotMinutes);
  const series = rateSeries(input.rate, end, slots * slotMinutes * MINUTE_MS, slots);
  const labels: string[] = [];
  const before: (number | null)[] = [];
  const after: (number | null)[] = [];
  const totals = { before: 0, after: 0, peakBefore: 0 };
  const stamp = stampOf(series.slotMs * series.counts.length);
  series.counts.forEach((n, i) => {
    const at = series.startMs + i * series.slotMs;
    labels.push(stamp(at));
    // A slot is after the deploy once it starts at or past the deploy's minute (the log's time decides).
    const isAfter = at >= Math.floor(pivotMs / MINUTE_MS) * MINUTE_MS && (Number.isFinite(deploy) || Number.isFinite(merge));
    before.push(isAfter ? null : n);
    after.push(isAfter ? n : null);
    if (isAfter) totals.after += n;
    else {
      totals.before += n;
      totals.peakBefore = Math.max(totals.peakBefore, n);
    }
  });
  return { labels, before, after, slotMinutes, startMs: series.startMs, slotMs: series.slotMs, pivotMs, windowEndMs, totals };
}

/** The label of the slot holding `ms` (markLines sit on a category). */
function labelAt(data: ChartData, ms: number): string | undefined {
  const i = Math.floor((ms - data.startMs) / data.slotMs);
  return data.labels[Math.min(Math.max(i, 0), data.labels.length - 1)];
}

/**
 * The verification chart, drawn server-side by ECharts as SVG (no canvas, no browser) and turned
 * into a PNG by resvg: the family's events per minute as bars, red before the deploy and green
 * after it, with the merge, the deploy and the window's end marked.
 */
export function createEchartsRateChart(options: EchartsRateChartOptions = {}): RateChart {
  const width = options.width ?? 900;
  const height = options.height ?? 380;
  const scale = options.scale ?? 2;
  const fontFiles = chartFontFiles(options.fontFiles, options.bundledFont ?? true);
  return {
    async render(input): Promise<ChatImage> {
      const data = chartData(input);
      const title = clip(redactSecrets(input.title).replace(/\s+/g, ' ').trim(), 90);
      const unit = data.slotMinutes === 1 ? 'min' : `${data.slotMinutes} min`;
      const hasDeploy = Boolean(input.deployedAt) && Number.isFinite(Date.parse(input.deployedAt ?? ''));
      const marks: Record<string, unknown>[] = [];
      const merged = input.mergedAt ? Date.parse(input.mergedAt) : Number.NaN;
      if (Number.isFinite(merged) && (!hasDeploy || Math.abs(merged - data.pivotMs) >= MINUTE_MS)) {
        marks.push({ xAxis: labelAt(data, merged), label: { formatter: `merged ${hhmm(merged)}`, position: 'insideEndTop' }, lineStyle: { color: '#6c757d', type: 'dashed' } });
      }
      if (hasDeploy) marks.push({ xAxis: labelAt(data, data.pivotMs), label: { formatter: `deployed ${hhmm(data.pivotMs)}`, position: 'insideEndTop' }, lineStyle: { color: '#1f4e79', width: 2, type: 'solid' } });
      if (hasDeploy) marks.push({ xAxis: labelAt(data, data.windowEndMs), label: { formatter: `window ends ${hhmm(data.windowEndMs)}`, position: 'insideEndBottom' }, lineStyle: { color: AFTER, type: 'dotted' } });
      const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
      let svg: string;
      try {
        const option: EChartsOption = {
          animation: false,
          backgroundColor: '#ffffff',
          textStyle: { fontFamily: FONT, color: '#333333' },
          title: { text: title, subtext: `Events per ${unit}, ${stampOf(data.labels.length * data.slotMs)(data.startMs)}–${stampOf(data.labels.length * data.slotMs)(data.startMs + data.labels.length * data.slotMs)} UTC`, left: 16, top: 8, textStyle: { fontSize: 15, fontFamily: FONT }, subtextStyle: { fontFamily: FONT } },
          legend: { data: [hasDeploy ? 'before the deploy' : 'before', hasDeploy ? 'after the deploy' : 'after'], right: 24, top: 12, itemGap: 36, textStyle: { fontFamily: FONT } },
          grid: { left: 56, right: 32, top: 92, bottom: 40 },
          xAxis: { type: 'category', data: data.labels, axisLabel: { fontFamily: FONT, hideOverlap: true }, axisTick: { alignWithLabel: true } },
          yAxis: { type: 'value', name: `events / ${unit}`, minInterval: 1, nameTextStyle: { fontFamily: FONT, align: 'left' }, axisLabel: { fontFamily: FONT } },
          series: [
            { name: hasDeploy ? 'before the deploy' : 'before', type: 'bar', stack: 'events', data: data.before, itemStyle: { color: BEFORE }, barCategoryGap: '15%', markLine: { symbol: 'none', silent: true, data: marks, label: { fontFamily: FONT, fontSize: 11, backgroundColor: 'rgba(255,255,255,0.85)', padding: [1, 2] } } },
            { name: hasDeploy ? 'after the deploy' : 'after', type: 'bar', stack: 'events', data: data.after, itemStyle: { color: AFTER } },
          ],
        };
        chart.setOption(option);
        svg = chart.renderToSVGString();
      } finally {
        chart.dispose();
      }
      const png = new Resvg(svg, {
        fitTo: { mode: 'zoom', value: scale },
        font: { loadSystemFonts: options.loadSystemFonts ?? true, fontFiles, defaultFontFamily: FONT, sansSerifFamily: FONT },
        background: '#ffffff',
      }).render().asPng();
      const peak = data.totals.peakBefore;
      const altText = hasDeploy
        ? `Events per ${unit} of ${title}: ${data.totals.before} before the deploy at ${hhmm(data.pivotMs)} UTC (peak ${peak}), ${data.totals.after} after it; the window ends at ${hhmm(data.windowEndMs)} UTC.`
        : `Events per ${unit} of ${title}: ${data.totals.before + data.totals.after} from ${hhmm(data.startMs)} UTC (peak ${peak}); no deploy yet.`;
      return { pngBase64: Buffer.from(png).toString('base64'), filename: 'verification.png', title: clip(`Events before and after the fix — ${title}`, 120), altText: clip(altText, 500) };
    },
  };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
