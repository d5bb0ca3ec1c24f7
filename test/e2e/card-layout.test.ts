/**
 * The card an on-call engineer reads, in headless Chromium at 900 px wide, over the real pipeline
 * (sandbox, Bolt receiver, queues, workers, a real git remote) with the scripted model proposing a
 * fix for three distinct failure families: each card shows Approve within its first 700 px, View
 * details opens the whole analysis, and Alice's approval pushes the branch to the local remote.
 * Screenshots of the channel, a card, the details modal and the thread go to a folder this test
 * prints (MEDIC_SCREENSHOT_DIR, default .medic/screenshots/card-layout).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime, type Runtime } from '../../src/app/start-runtime.js';
import { startWebRole } from '../../src/app/start-web-role.js';
import { fixBranches } from '../support/git-remote.js';
import { ROOT, checkoutErrorLines, createWorld, discountFailureLines, type World } from '../support/medic-world.js';
import { launchChromium, type TestBrowser } from '../support/chromium.js';

const SHOTS = process.env.MEDIC_SCREENSHOT_DIR ?? join(ROOT, '.medic', 'screenshots', 'card-layout');
const FIRST_SCREEN_PX = 700;

let world: World;
let runtime: Runtime;
let stopWeb: () => Promise<void>;
let context: BrowserContext;
let page: Page;
let browser: TestBrowser | undefined;

beforeAll(async () => {
  world = await createWorld({ llm: 'scripted' });
  await world.writeLogs('shop.jsonl', checkoutErrorLines(1) + discountFailureLines());
  runtime = await startRuntime({ ...world.env, MEDIC_CHAT: 'auto', MEDIC_APPROVERS: '', MEDIC_SANDBOX_PORT: '0', PORT: '0' }, { role: 'all', logLevel: 'silent', chatOut: new PassThrough() });
  stopWeb = await startWebRole(runtime);
  await runtime.medic.startWorkers();
  await mkdir(SHOTS, { recursive: true });
  browser = await launchChromium('layout', { width: 900, height: 1_000 });
  context = browser.context;
  page = await context.newPage();
  await page.goto(runtime.sandbox!.url);
  process.stdout.write(`card layout screenshots: ${SHOTS}\n`);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await stopWeb?.();
  await runtime?.close();
  await world?.close();
});

const cardsWithApprove = () => page.locator('#messages > .message').filter({ has: page.getByRole('button', { name: 'Approve' }) });

async function actAs(label: RegExp) {
  const select = page.locator('#user');
  await select.selectOption((await select.locator('option', { hasText: label }).getAttribute('value')) ?? '');
}

/** How far below the card's top its Approve button ends, in CSS pixels. */
async function approveDepth(card: Locator): Promise<number> {
  const top = (await card.boundingBox())!.y;
  const button = (await card.getByRole('button', { name: 'Approve' }).boundingBox())!;
  return button.y + button.height - top;
}

describe('the card at a glance', () => {
  it('shows at least three cards with a proposed fix and Approve within the first 700 px of each', async () => {
    await world.waitFor(async () => (await cardsWithApprove().count()) >= 3, 'three cards with Approve', 90_000);
    await page.evaluate('document.fonts.ready');
    const cards = cardsWithApprove();
    const depths: number[] = [];
    for (let i = 0; i < (await cards.count()); i++) {
      const card = cards.nth(i);
      await expect(card.locator('.block.header').textContent()).resolves.toMatch(/ERROR · shop/);
      await expect(card.textContent()).resolves.toMatch(/Status.*Awaiting approval/s);
      depths.push(await approveDepth(card));
    }
    expect(depths.length).toBeGreaterThanOrEqual(3);
    for (const depth of depths) expect(depth).toBeLessThanOrEqual(FIRST_SCREEN_PX);
    await page.screenshot({ path: join(SHOTS, 'channel.png'), fullPage: true });
    await cards.first().screenshot({ path: join(SHOTS, 'card.png') });
  }, 120_000);

  it('opens View details with the whole analysis and diff, and closes it', async () => {
    // The sandbox acts only as a chosen user; anyone in the incident's channel may read it.
    await actAs(/Bob/);
    const card = cardsWithApprove().first();
    await card.getByRole('button', { name: 'View details' }).click();
    const dialog = page.locator('#view-dialog');
    await dialog.getByText('Incident details').waitFor({ timeout: 20_000 });
    await expect(dialog.textContent()).resolves.toMatch(/Root cause · confidence \d+%[\s\S]*Evidence[\s\S]*Proposed fix/);
    await expect(dialog.textContent()).resolves.toContain('if (itemCount === 0)');
    await dialog.screenshot({ path: join(SHOTS, 'details-modal.png') });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }, 60_000);

  it('lets Alice approve: the branch reaches the local remote and the thread says so', async () => {
    await actAs(/Alice \(approver\)/);
    const card = cardsWithApprove().first();
    const title = (await card.locator('.block.header').first().textContent()) ?? '';
    await card.getByRole('button', { name: 'Approve' }).click();
    const confirm = page.locator('#confirm-dialog');
    await expect(confirm.textContent()).resolves.toMatch(/exactly the \d+-line diff shown on the card/);
    await confirm.getByRole('button', { name: 'Approve' }).click();
    const approved = page.locator('#messages > .message', { hasText: title });
    await approved.locator('.reply', { hasText: /fix\/inc-[\w-]+/ }).first().waitFor({ timeout: 60_000 });
    await approved.getByText(/Branch pushed/).first().waitFor({ timeout: 30_000 });
    const fixed = await world.waitFor(async () => (await runtime.medic.store.list({ states: ['fixed'] }))[0], 'the pushed state');
    expect(fixed.decision?.actor.id).toBe('U0APPROVER');
    expect(fixBranches(join(world.env.MEDIC_DATA_DIR!, 'remotes/sample-service.git'))).toEqual([fixed.fix!.branch]);
    await expect(approved.textContent()).resolves.not.toMatch(/\bFixed\b/);
    await approved.screenshot({ path: join(SHOTS, 'thread.png') });
  }, 120_000);
});
