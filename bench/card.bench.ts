/**
 * The size of an incident card as Medic posts it, over the sample incidents: blocks and characters
 * per card (Slack's limits are 50 blocks and ~12k characters; the card aims at ≤ 15 blocks) and its
 * height rendered by the sandbox page in headless Chromium at 900 px wide (target ≤ 700 px).
 *
 * Two sets, each through the real pipeline as `npm start` runs it (sandbox, queues, workers):
 * the shipped sample logs (data/logs) with the default offline analyzer, and three failure families
 * of the sample service with the scripted model proposing a fix, so cards with a diff are measured.
 * Every card is measured in its own channel's tab of the page; heights are the median of three renders.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { chromium } from 'playwright-core';
import { startRuntime } from '../src/app/start-runtime.js';
import { startWebRole } from '../src/app/start-web-role.js';
import { measureText } from '../src/presenters/block-limits.js';
import { ROOT, checkoutErrorLines, createWorld, discountFailureLines } from '../test/support/medic-world.js';
import { median, type BenchReport } from './report.js';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const RENDERS = 3;
/** MEDIC_BENCH_CARD_SHOTS=<dir> also saves a screenshot of every card (first render), to look at. */
const SHOTS = process.env.MEDIC_BENCH_CARD_SHOTS;

interface CardSize { set: string; ts: string; channel: string; title: string; blocks: number; chars: number; heightPx: number }

async function measureSet(set: string, llm: 'offline' | 'scripted', logs: { dir?: string; text?: string }): Promise<CardSize[]> {
  const world = await createWorld({ llm });
  if (logs.text) await world.writeLogs('shop.jsonl', logs.text);
  const runtime = await startRuntime({ ...world.env, ...(logs.dir ? { MEDIC_LOG_DIR: logs.dir } : {}), MEDIC_CHAT: 'auto', MEDIC_APPROVERS: '', MEDIC_SANDBOX_PORT: '0', PORT: '0' }, { role: 'all', logLevel: 'silent', chatOut: new PassThrough() });
  const stopWeb = await startWebRole(runtime);
  await runtime.medic.startWorkers();
  const profile = await mkdtemp(join(tmpdir(), 'medic-bench-card-'));
  try {
    // Settled: incidents exist and none is still being analysed.
    await world.waitFor(async () => {
      const all = await runtime.medic.store.list();
      return all.length > 0 && all.every((i) => !['new', 'analyzing'].includes(i.state)) ? all : undefined;
    }, `the ${set} incidents to settle`, 180_000);
    await new Promise((r) => setTimeout(r, 1_500)); // the last card update reaches the sandbox
    const cards = runtime.sandbox!.state.messages.filter((m) => !m.threadTs && !m.ephemeralFor);
    const channels = [...new Set(cards.map((card) => card.channel))];
    const heights = new Map<string, number[]>();
    const context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS, viewport: { width: 900, height: 1_000 } });
    try {
      const page = await context.newPage();
      for (let i = 0; i < RENDERS; i++) {
        // The page shows one channel tab at a time (the one it remembers): each is opened in turn.
        for (const channel of channels) {
          await page.goto(runtime.sandbox!.url);
          await page.evaluate((id) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('medic-sandbox-channel', id), channel);
          await page.reload();
          await page.locator('#messages > .message').first().waitFor();
          await page.evaluate('document.fonts.ready');
          for (const card of cards.filter((c) => c.channel === channel)) {
            const node = page.locator(`#messages > .message[data-ts="${card.ts}"]`);
            if ((await node.count()) === 0) continue;
            // The card itself, without the thread the page draws under it.
            const height = await node.evaluate((element) => {
              const thread = (element as unknown as { querySelector(s: string): { getBoundingClientRect(): { height: number } } | null }).querySelector(':scope > .thread');
              return (element as unknown as { getBoundingClientRect(): { height: number } }).getBoundingClientRect().height - (thread?.getBoundingClientRect().height ?? 0);
            });
            heights.set(card.ts, [...(heights.get(card.ts) ?? []), height]);
            if (SHOTS && i === 0) await node.screenshot({ path: join(SHOTS, `${set.split(',')[0]!.replace(/\W+/g, '-')}-${card.ts}.png`) });
          }
        }
      }
    } finally {
      await context.close();
    }
    const missing = cards.filter((card) => !heights.has(card.ts));
    if (missing.length > 0) throw new Error(`${missing.length} of ${cards.length} ${set} cards were not on the page in any channel tab: ${missing.map((c) => c.text.slice(0, 60)).join(' | ')}`);
    return cards.map((card) => ({
      set, ts: card.ts, channel: card.channel, title: card.text.slice(0, 60), blocks: card.blocks.length,
      chars: measureText(card.blocks as Record<string, unknown>[]), heightPx: Math.round(median(heights.get(card.ts) ?? [0])),
    }));
  } finally {
    await stopWeb();
    await runtime.close();
    await world.close();
    await rm(profile, { recursive: true, force: true });
  }
}

export default async function bench(): Promise<BenchReport> {
  const load = loadavg()[0] ?? 0;
  const sizes = [
    ...(await measureSet('sample logs, offline', 'offline', { dir: join(ROOT, 'data/logs') })),
    ...(await measureSet('discount families, scripted fix', 'scripted', { text: checkoutErrorLines(1) + discountFailureLines() })),
  ];
  const max = (key: 'blocks' | 'chars' | 'heightPx') => Math.max(...sizes.map((s) => s[key]));
  const withFix = sizes.filter((s) => s.set.includes('fix'));
  return {
    headline: {
      cards: sizes.length,
      cards_measured: sizes.filter((s) => s.heightPx > 0).length,
      channels: new Set(sizes.map((s) => `${s.set}\u0000${s.channel}`)).size,
      blocks_max: max('blocks'),
      chars_max: max('chars'),
      height_px_max: max('heightPx'),
      height_px_max_with_fix: withFix.length ? Math.max(...withFix.map((s) => s.heightPx)) : 0,
      load_avg_1m: Math.round(load * 100) / 100,
    },
    table: { columns: ['set', 'channel', 'card', 'blocks', 'chars', 'height px'], rows: sizes.map((s) => [s.set, s.channel, s.title, s.blocks, s.chars, s.heightPx]) },
    detail: { viewportWidth: 900, renders: RENDERS, loadAverageAtStart: loadavg(), cards: sizes },
  };
}
