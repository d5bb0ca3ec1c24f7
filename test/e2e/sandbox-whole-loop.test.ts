/**
 * Medic as `npm start` runs it — sandbox, Bolt receiver, real queues, workers, scripted model and a
 * real git remote — driven from headless Chromium: the card appears for a real log line, a
 * non-approver is refused, the approver's click pushes a fix branch and the thread shows it.
 */
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime, type Runtime } from '../../src/app/start-runtime.js';
import { startWebRole } from '../../src/app/start-web-role.js';
import { fixBranches } from '../support/git-remote.js';
import { checkoutErrorLines, createWorld, type World } from '../support/medic-world.js';
import { launchChromium, type TestBrowser } from '../support/chromium.js';


let world: World;
let runtime: Runtime;
let stopWeb: () => Promise<void>;
let context: BrowserContext;
let page: Page;
let browser: TestBrowser | undefined;

beforeAll(async () => {
  world = await createWorld({ llm: 'scripted' });
  await world.writeLogs('shop.jsonl', checkoutErrorLines(1));
  runtime = await startRuntime({ ...world.env, MEDIC_CHAT: 'auto', MEDIC_APPROVERS: '', MEDIC_SANDBOX_PORT: '0', PORT: '0' }, { role: 'all', logLevel: 'silent', chatOut: new PassThrough() });
  stopWeb = await startWebRole(runtime);
  await runtime.medic.startWorkers();
  browser = await launchChromium('loop');
  context = browser.context;
  page = await context.newPage();
  await page.goto(runtime.sandbox!.url);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await stopWeb?.();
  await runtime?.close();
  await world?.close();
});

async function actAs(label: RegExp) {
  const select = page.locator('#user');
  await select.selectOption((await select.locator('option', { hasText: label }).getAttribute('value')) ?? '');
}

async function approveThroughConfirm() {
  await page.locator('.message', { hasText: 'Invalid discount' }).getByRole('button', { name: 'Approve' }).first().click();
  const dialog = page.locator('#confirm-dialog');
  await dialog.getByRole('button', { name: 'Approve' }).click();
}

describe('the sandbox page over the real pipeline', () => {
  it('shows the card of a real log line with Approve once the analysis proposes a fix', async () => {
    await page.locator('.message', { hasText: 'Invalid discount' }).getByRole('button', { name: 'Approve' }).first().waitFor({ timeout: 60_000 });
  }, 90_000);

  it('refuses a non-approver, who alone sees the refusal', async () => {
    await actAs(/not an approver/);
    await approveThroughConfirm();
    await page.locator('.message.ephemeral', { hasText: 'Only configured approvers' }).waitFor({ timeout: 20_000 });
    const [incident] = await runtime.medic.store.list();
    expect(incident?.state).toBe('awaiting_approval');
  }, 60_000);

  it('lets the approver approve: the fix branch is pushed and shown in the thread', async () => {
    await actAs(/Alice \(approver\)/);
    await approveThroughConfirm();
    await page.locator('.reply', { hasText: /fix\/inc-[\w-]+/ }).first().waitFor({ timeout: 60_000 });
    // The thread reply is posted just before the incident's final state is written.
    const incident = await world.waitFor(async () => (await runtime.medic.store.list({ states: ['fixed'] }))[0], 'the fixed state');
    expect(incident.decision?.actor.id).toBe('U0APPROVER');
    expect(fixBranches(join(world.env.MEDIC_DATA_DIR!, 'remotes/sample-service.git'))).toEqual([incident.fix!.branch]);
  }, 90_000);
});
