/**
 * The verification chart in the sandbox page, in headless Chromium: the chart drawn by the real
 * adapter (ECharts, resvg), posted by the real Slack chat adapter as a file upload in the card's
 * thread, and shown by the page under the reply's text from the sandbox's own file route.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEchartsRateChart } from '../../src/adapters/charts/echarts-rate-chart.js';
import { createSlackChat } from '../../src/adapters/slack/slack-chat.js';
import { createSlackWebClient } from '../../src/adapters/slack/web-client.js';
import { minuteKey, type EventRate } from '../../src/domain/event-rate.js';
import { presentIncidentCard } from '../../src/presenters/incident-card.js';
import { presentVerificationReply } from '../../src/presenters/verification-reply.js';
import { createSlackSandbox, type SlackSandbox } from '../../src/sandbox/create-slack-sandbox.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';
import { launchChromium, type TestBrowser } from '../support/chromium.js';
import { ROOT } from '../support/medic-world.js';

const TOKEN = 'xoxb-picture-browser-token';
const SHOTS = process.env.MEDIC_SCREENSHOT_DIR ?? join(ROOT, '.medic', 'screenshots', 'thread-picture');
const NOW = Date.parse('2026-12-02T14:45:00.000Z');

let sandbox: SlackSandbox;
let browser: TestBrowser | undefined;
let page: Page;

beforeAll(async () => {
  sandbox = await createSlackSandbox({ port: 0, signingSecret: 'unused-here', botToken: TOKEN, medicEventsUrl: 'http://127.0.0.1:9/slack/events' });
  const chat = createSlackChat({ channel: 'incidents', client: createSlackWebClient({ token: TOKEN, apiUrl: sandbox.apiUrl }) });
  const rate: EventRate = {};
  for (let ago = 80; ago > 35; ago--) rate[minuteKey(NOW - ago * 60_000)] = 60 + (ago % 9) * 7;
  const verification = { status: 'verified' as const, since: '2026-12-02T13:50:00.000Z', windowMinutes: 30, mergedAt: '2026-12-02T14:02:00.000Z', deployedAt: '2026-12-02T14:10:00.000Z', beforePerHour: 4_200, looks: 3 };
  const incident = buildAnalysedIncident({ id: 'inc-picture-1', state: 'closed', verification, resolution: { quietMinutes: 30, kind: 'verified' }, fix: { branch: 'fix/inc-picture-1', commit: 'abcdef0123456', pushStatus: 'pushed' } });
  const card = await chat.postCard(`card:${incident.id}`, presentIncidentCard({ incident }));
  const image = await createEchartsRateChart().render({ title: incident.title, rate, deployedAt: verification.deployedAt, mergedAt: verification.mergedAt, windowMinutes: 30, nowMs: NOW });
  await chat.replyInThread(card, `verified:${incident.id}`, presentVerificationReply({ incident }, 'verified', image));
  browser = await launchChromium('thread-picture', { width: 900, height: 1_000 });
  page = await browser.context.newPage();
  await page.goto(sandbox.url);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
});

describe('a picture reply in the sandbox page', () => {
  it('shows the reply text and the chart itself, loaded from the sandbox', async () => {
    const reply = page.locator('.thread .reply', { hasText: 'Resolved — verified' });
    await reply.waitFor();
    await expect(reply.textContent()).resolves.toContain('no “PaymentTimeoutException');
    const img = reply.locator('figure.file img');
    await img.waitFor();
    // Decoded, not a broken-image box: the bytes came through the upload and the file route.
    await page.waitForFunction(() => {
      const node = (globalThis as unknown as { document: { querySelector(s: string): { complete: boolean; naturalWidth: number } | null } }).document.querySelector('figure.file img');
      return node !== null && node.complete && node.naturalWidth > 0;
    });
    expect(await img.evaluate((node) => (node as unknown as { naturalWidth: number }).naturalWidth)).toBe(1800);
    expect(await img.getAttribute('alt')).toMatch(/^Events per min of PaymentTimeoutException.*before the deploy at 14:10 UTC/);
    expect(await img.getAttribute('src')).toMatch(/^\/sandbox\/files\/F[A-Z0-9]+\/verification-[0-9a-f]{16}\.png$/);
    await expect(reply.locator('figcaption').textContent()).resolves.toContain('Events before and after the fix');
    const box = await img.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(300);
    expect(box?.height ?? 0).toBeLessThanOrEqual(360);
    await mkdir(SHOTS, { recursive: true });
    await reply.screenshot({ path: join(SHOTS, 'thread-picture.png') });
  });
});
