/**
 * The first run a newcomer sees, in headless Chromium at 900 px wide: Medic started as `npm start`
 * starts it with nothing configured (offline analyzer, the sample logs and the sample service's
 * dated history), so every proposal on the page is the LLM-free revert of the sample commit that
 * introduced a bug. At least two cards show Approve within their first 700 px, View details opens,
 * and Alice's approval pushes a `fix/…` branch whose one commit undoes only lines that sample
 * commit changed (its hunks at the failing lines). The `authorizationId` failure that two log files report is one card,
 * and the gateway's burst of 502s shows its values, never a `<*>`, naming the refused upstream
 * rather than a client file. Screenshots of the channel, a card, the details modal and the thread
 * go to a folder this test prints (MEDIC_SCREENSHOT_DIR, default .medic/screenshots/default-run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited } from '../support/crash-drill.js';
import { fixBranches, gitIn } from '../support/git-remote.js';
import { ROOT, createWorld, type World } from '../support/medic-world.js';
import { launchChromium, type TestBrowser } from '../support/chromium.js';

const SHOTS = process.env.MEDIC_SCREENSHOT_DIR ?? join(ROOT, '.medic', 'screenshots', 'default-run');
const FIRST_SCREEN_PX = 700;
// The page's fixed command bar would sit across a tall message's picture; a message shot leaves it out.
const FOOTER_HIDDEN = '#command-form, #status { display: none !important; }';
// What a newcomer's shell may hold that would make this run anything but the default one.
const CONFIGURING = /^(OPENAI_|SLACK_|SPLUNK_|GITHUB_|QDRANT_|MEDIC_(?!DATA_DIR$|REDIS_PREFIX$))/;

let world: World;
let medic: ChildProcess;
let output = '';
let context: BrowserContext;
let page: Page;
let browser: TestBrowser | undefined;
/** The approved card's message ts, which the merge and verdict follow. */
let approvedTs = '';

/** The environment of a fresh shell plus only what isolates this run: its Redis prefix and data dir. */
function defaultEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !CONFIGURING.test(key)));
  delete env.NODE_ENV;
  delete env.LOG_LEVEL;
  return { ...env, REDIS_URL: world.env.REDIS_URL, MEDIC_REDIS_PREFIX: world.prefix, MEDIC_DATA_DIR: world.env.MEDIC_DATA_DIR, MEDIC_SANDBOX_PORT: '0', PORT: '0' };
}

beforeAll(async () => {
  world = await createWorld({ llm: 'offline' });
  // What `npm start` execs: the bundle the test set-up built from the sources.
  medic = spawn(process.execPath, ['dist/main.js', '--exit-with-parent'], { cwd: ROOT, env: defaultEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  medic.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  medic.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const url = await world.waitFor(async () => /Slack sandbox +(http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1], 'the sandbox in the start-up banner', 30_000);
  expect(output).toMatch(/Analysis +offline, no LLM key/);
  await mkdir(SHOTS, { recursive: true });
  browser = await launchChromium('default', { width: 900, height: 1_000 });
  context = browser.context;
  page = await context.newPage();
  await page.goto(url);
  process.stdout.write(`default run screenshots: ${SHOTS}\n`);
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
const cardsWithApprove = () => cards().filter({ has: page.getByRole('button', { name: 'Approve' }) });
const analysed = (title: RegExp) => cards().filter({ hasText: title }).filter({ hasText: /Root cause/ });
const remote = () => join(world.env.MEDIC_DATA_DIR!, 'remotes/sample-service.git');

/** Until the page has shown the same messages for two seconds: no card is mid-update when measured. */
async function settled(): Promise<void> {
  let last = '';
  let since = Date.now();
  await world.waitFor(async () => {
    const html = await page.locator('#messages').innerHTML();
    if (html !== last) [last, since] = [html, Date.now()];
    return Date.now() - since >= 2_000;
  }, 'the channel to settle', 45_000);
}

/** A picture of one message, without the fixed command bar across it. */
async function shoot(message: Locator, name: string): Promise<void> {
  await page.evaluate(`{ const s = document.createElement('style'); s.id = 'shot-style'; s.textContent = ${JSON.stringify(FOOTER_HIDDEN)}; document.head.append(s); }`);
  await message.screenshot({ path: join(SHOTS, name) });
  await page.evaluate("document.getElementById('shot-style').remove()");
}

/** How far below the card's top its Approve button ends, in CSS pixels. */
async function approveDepth(card: Locator): Promise<number> {
  const top = (await card.boundingBox())!.y;
  const button = (await card.getByRole('button', { name: 'Approve' }).boundingBox())!;
  return button.y + button.height - top;
}

/** The changed lines of a patch, with the sign that says which side they are on. */
function changedLines(patch: string): string[] {
  return patch.split('\n').filter((line) => /^[-+](?![-+]{2} )/.test(line));
}

describe('the default run in the browser', () => {
  it('shows the sample cards, at least two with a revert and Approve within the first 700 px', async () => {
    await world.waitFor(async () => (await cardsWithApprove().count()) >= 2, 'two cards with Approve', 45_000);
    await settled();
    await page.evaluate('document.fonts.ready');
    const proposing = cardsWithApprove();
    const depths: number[] = [];
    for (let i = 0; i < (await proposing.count()); i++) {
      const card = proposing.nth(i);
      await expect(card.textContent()).resolves.toMatch(/Status.*Awaiting approval/s);
      await expect(card.textContent()).resolves.toMatch(/[Rr]evert/);
      depths.push(await approveDepth(card));
    }
    expect(depths.length).toBeGreaterThanOrEqual(2);
    for (const depth of depths) expect(depth).toBeLessThanOrEqual(FIRST_SCREEN_PX);
    await page.screenshot({ path: join(SHOTS, 'channel.png'), fullPage: true });
    await shoot(proposing.first(), 'card.png');
  }, 60_000);

  it('shows the authorizationId failure from two log files as one card', async () => {
    const failure = /reading 'authorizationId'/;
    // The shop channel's five sample incidents (loyalty's sixth has a channel of its own): count once all are analysed.
    await world.waitFor(async () => (await analysed(/./).count()) >= 5, 'five analysed cards', 60_000);
    const matching = cards().filter({ has: page.locator('.block.header', { hasText: failure }) });
    expect(await matching.count()).toBe(1);
    const card = matching.first();
    await expect(card.textContent()).resolves.toMatch(/Events\s*8 ·/);
    await card.scrollIntoViewIfNeeded();
    await shoot(card, 'authorization-card.png');
  }, 90_000);

  it('titles the 502 burst with its values, no placeholder, and names the refused upstream as the suspect', async () => {
    const card = analysed(/upstream error: 502 Bad Gateway/).first();
    await card.waitFor({ timeout: 30_000 });
    const text = (await card.textContent()) ?? '';
    expect(text).not.toContain('<*>');
    await expect(card.locator('.block.header').textContent()).resolves.toContain('upstream error: 502 Bad Gateway');
    expect(text).toMatch(/Suspect\s*upstream 10\.2\.0\.14:8080 · connection refused/);
    expect(text).toContain('Upstream failure: connection refused by 10.2.0.14:8080');
    expect(text).not.toMatch(/payment-client\.ts/);
    await card.scrollIntoViewIfNeeded();
    await shoot(card, 'upstream-502-card.png');
  }, 60_000);

  it('opens View details with the analysis and the revert diff, and closes it', async () => {
    // The sandbox acts only as a chosen user; anyone in the incident's channel may read it.
    const select = page.locator('#user');
    await select.selectOption((await select.locator('option', { hasText: /Bob/ }).getAttribute('value')) ?? '');
    await cardsWithApprove().first().getByRole('button', { name: 'View details' }).click();
    const dialog = page.locator('#view-dialog');
    await dialog.getByText('Incident details').waitFor({ timeout: 20_000 });
    await expect(dialog.textContent()).resolves.toMatch(/Root cause[\s\S]*Evidence[\s\S]*Proposed fix/);
    await dialog.screenshot({ path: join(SHOTS, 'details-modal.png') });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }, 30_000);

  it('lets Alice approve: the thread names the branch, and the remote holds exactly the revert', async () => {
    const select = page.locator('#user');
    await select.selectOption((await select.locator('option', { hasText: /Alice \(approver\)/ }).getAttribute('value')) ?? '');
    const card = cardsWithApprove().first();
    // Two services report the same failure, so their titles match: follow this card by its message ts.
    const ts = (await card.getAttribute('data-ts')) ?? '';
    expect(ts).not.toBe('');
    approvedTs = ts;
    await card.getByRole('button', { name: 'Approve' }).click();
    const confirm = page.locator('#confirm-dialog');
    await expect(confirm.textContent()).resolves.toMatch(/with exactly the \d+-line diff/);
    await confirm.getByRole('button', { name: 'Approve' }).click();
    // The page says in words that the click reached Medic, on a footer the messages do not show through.
    const status = page.locator('#status');
    await status.getByText('Your click reached Medic; its answer appears in the channel.').waitFor({ timeout: 20_000 });
    expect(await page.evaluate("getComputedStyle(document.querySelector('#status')).backgroundColor")).not.toMatch(/^(transparent|rgba\(0, 0, 0, 0\))$/);
    const approved = page.locator(`#messages > .message[data-ts="${ts}"]`);
    const reply = approved.locator('.reply', { hasText: /fix\/[\w./-]+/ }).first();
    await reply.waitFor({ timeout: 30_000 });
    await approved.getByText(/Branch pushed/).first().waitFor({ timeout: 20_000 });
    await expect(approved.textContent()).resolves.not.toMatch(/\bFixed\b/);
    await shoot(approved.first(), 'thread.png');

    const branches = fixBranches(remote());
    expect(branches).toHaveLength(1);
    const [branch = ''] = branches;
    expect(await reply.textContent()).toContain(branch);
    const base = gitIn(remote(), ['merge-base', 'main', branch]);
    expect(gitIn(remote(), ['rev-list', '--count', `${base}..${branch}`])).toBe('1');
    const message = gitIn(remote(), ['log', '-1', '--format=%B', branch]);
    const reverted = /This reverts commit ([0-9a-f]{40})/.exec(message)?.[1];
    expect(reverted, message).toBeDefined();
    const subject = gitIn(remote(), ['log', '-1', '--format=%s', reverted!]);
    // The subject is kept to one short line, so a long reverted subject ends in an ellipsis.
    const quoted = /^Revert "(.+?)(?:"|…)$/m.exec(message)?.[1];
    expect(quoted, message).toBeDefined();
    expect(subject.startsWith(quoted!)).toBe(true);
    const files = gitIn(remote(), ['diff', '--name-only', `${branch}^`, branch]).split('\n');
    expect(files).toHaveLength(1);
    const [file = ''] = files;
    expect(gitIn(remote(), ['show', '--name-only', '--format=', reverted!]).split('\n')).toContain(file);
    // The fix undoes the commit's hunks at the failing lines, line for line: its - lines are among
    // the commit's + lines and its + lines among the commit's - lines.
    const fix = changedLines(gitIn(remote(), ['diff', '-U0', `${branch}^`, branch, '--', file]));
    const undo = changedLines(gitIn(remote(), ['diff', '-U0', reverted!, `${reverted!}^`, '--', file]));
    expect(fix.length).toBeGreaterThan(0);
    expect(undo).toEqual(expect.arrayContaining(fix));
  }, 60_000);

  it('lets the newcomer merge the fix branch and see Medic verify it: the quiet rate, chart, timeline', async () => {
    expect(approvedTs).not.toBe('');
    const approved = page.locator(`#messages > .message[data-ts="${approvedTs}"]`);
    await approved.getByRole('button', { name: 'Merge fix branch' }).click();
    const [branch = ''] = fixBranches(remote());
    // The merge lands on the local remote's default branch, and the card says Medic saw it.
    await world.waitFor(async () => gitIn(remote(), ['branch', '--contains', branch, '--list', 'main']).includes('main'), 'the fix merged into main', 20_000);
    await world.waitFor(async () => /Merged/.test((await approved.textContent()) ?? ''), 'the card to see the merge', 30_000);
    // The sandbox's quiet window is a minute: the sample's errors are all older than the merge.
    await world.waitFor(async () => /Status\s*✅?\s*Resolved — verified/.test((await approved.textContent()) ?? ''), 'the card to say Resolved — verified', 120_000);
    const verdict = approved.locator('.reply', { hasText: /Resolved — verified/ }).first();
    await verdict.waitFor({ timeout: 30_000 });
    await expect(verdict.textContent()).resolves.toMatch(/no “.+” events in 1 min since the fix was deployed at \d\d:\d\d UTC \(before: \d+ \/ h\)/);
    // The before/after chart was uploaded to the thread and the page shows the picture itself.
    const chart = verdict.locator('figure.file img');
    await chart.waitFor({ timeout: 30_000 });
    await chart.scrollIntoViewIfNeeded();
    await world.waitFor(async () => (await chart.evaluate((img: { complete: boolean; naturalWidth: number }) => (img.complete ? img.naturalWidth : 0))) > 0, 'the chart to load', 20_000);
    // The card's rate: the sample's events are older than the sparkline's day, so the quiet span is said in words.
    await expect(approved.textContent()).resolves.toMatch(/Events\s*\d+ · [^·]+ · none in \d+(?:\.\d)? (?:h|min)/);
    const timeline = approved.locator('.reply', { hasText: /Timeline/ }).first();
    await timeline.waitFor({ timeout: 30_000 });
    await expect(timeline.textContent()).resolves.toMatch(/Resolved — verified|verified/i);
    await shoot(approved.first(), 'verified-thread.png');
    await verdict.screenshot({ path: join(SHOTS, 'verified-chart.png') });
  }, 240_000);

  it('shows the second sample service in its own channel tab, with its own revert', async () => {
    const tabs = page.locator('#channels .channel');
    await world.waitFor(async () => (await tabs.count()) === 2 && /loyalty-oncall \(1\)/.test((await tabs.nth(1).textContent()) ?? ''), 'the loyalty channel tab with its card', 45_000);
    await expect(tabs.nth(0).textContent()).resolves.toMatch(/^#incidents \(\d+\)$/);
    await tabs.nth(1).click();
    await expect(page.locator('#channel-name').textContent()).resolves.toBe('loyalty-oncall');
    await world.waitFor(async () => (await cards().count()) === 1, 'only the loyalty card in its channel');
    const card = cards().first();
    await world.waitFor(async () => /Awaiting approval/.test((await card.textContent()) ?? ''), 'the loyalty card analysed', 45_000);
    // The catalog's service in the header, the log's own name for it as such.
    await expect(card.textContent()).resolves.toMatch(/ERROR · loyalty — [\s\S]*service `?loyalty`? · logged as `?loyalty-points`?[\s\S]*sample-loyalty/);
    await expect(card.textContent()).resolves.toMatch(/[Rr]evert/);
    await shoot(card, 'loyalty-card.png');
    await tabs.nth(0).click();
    await expect(page.locator('#channel-name').textContent()).resolves.toBe('incidents');
  }, 60_000);

  it('stops on SIGTERM without printing a secret from the sample logs', async () => {
    expect(output).not.toMatch(/AKIA[0-9A-Z]{16}|xoxb-\d|ghp_[A-Za-z0-9]{20}/);
    medic.kill('SIGTERM');
    expect(await exited(medic)).toBe('0');
  }, 20_000);
});
