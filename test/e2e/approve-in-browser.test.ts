/**
 * The whole approve path in headless Chromium: the sandbox page renders the card from the Block
 * Kit JSON Medic posted, a click goes through the confirm dialog, the sandbox signs it and forwards
 * it to Medic's real Bolt app, and the outcome comes back through the real chat adapter.
 *
 * The use-cases are FakeIncidentCommands (behaving like the real ones: authority from the verified
 * user id, hash-bound approval, apply-fix job updating the card and replying with the branch);
 * switch to `createIncidentCommands` and the real jobs once the pipeline lands.
 */
import { type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presentIncidentCard } from '../../src/presenters/incident-card.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';
import { startSlackHarness, type SlackHarness } from '../slack/support/slack-harness.js';

// Without the background-networking flags Chromium dials out, and the closed network refuses it.

let h: SlackHarness;
let context: BrowserContext;
let page: Page;
let browser: TestBrowser | undefined;

beforeAll(async () => {
  h = await startSlackHarness();
  const incident = buildAnalysedIncident({ id: 'inc-e2e-1', title: 'Checkout fails: <!channel> PaymentTimeoutException' });
  const card = await h.chat.postCard(`card:${incident.id}`, presentIncidentCard({ incident }));
  h.commands.add({ ...incident, card });
  browser = await launchChromium('chromium');
  context = browser.context;
  page = await context.newPage();
  await page.goto(h.sandbox.url);
});

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function actAs(label: RegExp) {
  const select = page.locator('#user');
  const value = await select.locator('option', { hasText: label }).getAttribute('value');
  await select.selectOption(value ?? '');
}

async function approveThroughConfirm() {
  await page.locator('.message', { hasText: 'inc-e2e-1' }).getByRole('button', { name: 'Approve' }).click();
  const dialog = page.locator('#confirm-dialog');
  await dialog.getByText('Approve this fix?').waitFor();
  await dialog.getByRole('button', { name: 'Approve' }).click();
}

describe('approve in the browser', () => {
  it('renders the card from Block Kit with untrusted text shown as text, not markup', async () => {
    const card = page.locator('.message', { hasText: 'inc-e2e-1' });
    await card.getByText('Root cause', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'View details' }).waitFor();
    await expect(card.locator('.block.header').textContent()).resolves.toContain('ERROR · checkout');
    await expect(card.textContent()).resolves.toContain('Checkout fails: <!channel> PaymentTimeoutException');
    expect(await card.locator('.mention').count()).toBe(0);
  });

  it('a non-approver clicks Approve and sees the refusal only they can see', async () => {
    await actAs(/not an approver/);
    await approveThroughConfirm();
    const refusal = page.locator('.message.ephemeral', { hasText: 'Only approvers' });
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.toContain('Only visible to you');
    expect(h.commands.incidents.get('inc-e2e-1')!.state).toBe('awaiting_approval');
  });

  it('an approver clicks Approve: the card is updated in place and the thread shows the fix branch', async () => {
    await actAs(/Alice \(approver\)/);
    // Bob's ephemeral is his alone: it disappears once the page acts as Alice.
    await page.locator('.message.ephemeral', { hasText: 'Only approvers' }).waitFor({ state: 'detached' });
    await approveThroughConfirm();
    const card = page.locator('.message', { hasText: 'inc-e2e-1' });
    await card.locator('.reply', { hasText: /fix\/inc-e2e-1-\d{14}/ }).waitFor();
    await card.getByText(/Branch pushed/).first().waitFor();
    await expect(card.textContent()).resolves.toMatch(/approved by @alice/i);
    expect(await card.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(h.sandbox.state.messages.filter((m) => !m.threadTs && !m.ephemeralFor)).toHaveLength(1);
  });
});
import { launchChromium, type TestBrowser } from '../support/chromium.js';
