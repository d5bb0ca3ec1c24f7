/**
 * Two things a newcomer reads off the default run's cards, in headless Chromium on the real sandbox
 * page (Medic started as `npm start` starts it, offline, on the sample logs): the `authorizationId`
 * failure the shop's JSON log and its payments path's plain log both report is ONE card; and the
 * gateway's burst of 502s shows its values ("upstream error: 502 Bad Gateway"), never a `<*>`,
 * naming the refused upstream rather than a client file. Screenshots go to a folder this test
 * prints (MEDIC_SCREENSHOT_DIR, default .medic/screenshots/sample-cards).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited } from '../support/crash-drill.js';
import { ROOT, createWorld, type World } from '../support/medic-world.js';
import { launchChromium, type TestBrowser } from '../support/chromium.js';

const SHOTS = process.env.MEDIC_SCREENSHOT_DIR ?? join(ROOT, '.medic', 'screenshots', 'sample-cards');
const CONFIGURING = /^(OPENAI_|SLACK_|SPLUNK_|GITHUB_|QDRANT_|MEDIC_(?!DATA_DIR$|REDIS_PREFIX$))/;

let world: World;
let medic: ChildProcess;
let output = '';
let page: Page;
let browser: TestBrowser | undefined;

beforeAll(async () => {
  world = await createWorld({ llm: 'offline' });
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !CONFIGURING.test(key)));
  delete env.NODE_ENV;
  delete env.LOG_LEVEL;
  medic = spawn(process.execPath, ['dist/main.js', '--exit-with-parent'], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, REDIS_URL: world.env.REDIS_URL, MEDIC_REDIS_PREFIX: world.prefix, MEDIC_DATA_DIR: world.env.MEDIC_DATA_DIR, MEDIC_SANDBOX_PORT: '0', PORT: '0' },
  });
  medic.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  medic.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const url = await world.waitFor(async () => /Slack sandbox +(http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1], 'the sandbox in the start-up banner', 30_000);
  await mkdir(SHOTS, { recursive: true });
  browser = await launchChromium('sample-cards', { width: 900, height: 1_000 });
  page = await browser.context.newPage();
  await page.goto(url);
  process.stdout.write(`sample cards screenshots: ${SHOTS}\n`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (medic && medic.exitCode === null) {
    medic.kill('SIGTERM');
    await exited(medic);
  }
  await world?.close();
});

const cards = () => page.locator('#messages > .message');
const analysed = (title: RegExp) => cards().filter({ hasText: title }).filter({ hasText: /Root cause/ });

describe('the sample cards in the browser', () => {
  it('shows the authorizationId failure from two log files as one card', async () => {
    const failure = /reading 'authorizationId'/;
    await analysed(failure).first().waitFor({ timeout: 60_000 });
    // The shop channel's five sample incidents (loyalty's sixth has a channel of its own): count once all are analysed.
    await world.waitFor(async () => (await cards().filter({ hasText: /Root cause/ }).count()) >= 5, 'five analysed cards', 60_000);
    const matching = cards().filter({ has: page.locator('.block.section', { hasText: failure }) });
    expect(await matching.count()).toBe(1);
    const card = matching.first();
    await expect(card.textContent()).resolves.toMatch(/Events\s*8 ·/);
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: join(SHOTS, 'authorization-card.png') });
  }, 90_000);

  it('titles the 502 burst with its values, no placeholder, and names the refused upstream as the suspect', async () => {
    const card = analysed(/upstream error: 502 Bad Gateway/).first();
    await card.waitFor({ timeout: 30_000 });
    const text = (await card.textContent()) ?? '';
    expect(text).not.toContain('<*>');
    await expect(card.locator('.block.section').first().textContent()).resolves.toContain('upstream error: 502 Bad Gateway');
    expect(text).toMatch(/Suspect\s*upstream 10\.2\.0\.14:8080 · connection refused/);
    expect(text).toContain('Upstream failure: connection refused by 10.2.0.14:8080');
    expect(text).not.toMatch(/payment-client\.ts/);
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: join(SHOTS, 'upstream-502-card.png') });
  }, 60_000);
});
