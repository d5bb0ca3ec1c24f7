import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Incident } from '../../src/domain/incident.js';
import { createBareRemote, guardedFile, guardErrorLine } from '../support/catalog-remotes.js';
import { fixBranches, gitIn } from '../support/git-remote.js';
import { awaitFixEnd, createWorld, type World } from '../support/medic-world.js';
import { startGitHubServer } from '../loopback/github-server.js';
import { closeAfterEach } from '../support/close-after-each.js';

const opened = closeAfterEach();
const TOKEN = 'ghp_loopbackTokenForCatalogTests000000000';

const price = guardedFile('unitPrice');
const charge = guardedFile('splitCharge');
const balance = guardedFile('perAccount');
const handler = 'export function handle(): void {\n  // the request handler\n  // calls into the domain\n  return;\n}\n';

/** A monorepo holding checkout and payments, and a ledger repository: real bare remotes, a bad commit each. */
function createRemotes(dir: string) {
  const mono = createBareRemote(join(dir, 'shop-mono.git'), [
    { message: 'checkout and payments services', date: '2026-11-15T10:00:00Z', files: {
      'services/checkout/src/price.ts': price.good, 'services/checkout/src/handler.ts': handler,
      'services/payments/src/charge.ts': charge.good, 'services/payments/src/handler.ts': handler, 'README.md': '# shop monorepo\n',
      '.github/CODEOWNERS': '* @acme/platform\n/services/checkout/ @chen\n/services/payments/ @acme/payments ana@example.test\n',
    } },
    { message: 'checkout: refuse empty carts loudly', date: '2026-11-28T10:00:00Z', author: 'Chen Li <chen@example.test>', files: { 'services/checkout/src/price.ts': price.bad } },
    { message: 'payments: refuse zero-way splits loudly', date: '2026-11-28T11:00:00Z', author: 'Ana Pay <ana@example.test>', files: { 'services/payments/src/charge.ts': charge.bad } },
  ]);
  const ledger = createBareRemote(join(dir, 'ledger.git'), [
    { message: 'ledger service', date: '2026-11-15T10:00:00Z', files: { 'src/balance.ts': balance.good, 'src/handler.ts': handler } },
    { message: 'ledger: refuse empty account sets loudly', date: '2026-11-28T12:00:00Z', author: 'Lee Ledger <lee@example.test>', files: { 'src/balance.ts': balance.bad } },
  ]);
  return { mono, ledger };
}

const catalogYaml = (remotes: { mono: string; ledger: string }, extra = '', github = '') => `version: 1
default_channel: incidents
repositories:
  - id: shop-mono
    remote: ${remotes.mono}
    branch: main${github ? `\n    github: ${github}` : ''}
  - id: ledger
    remote: ${remotes.ledger}
services:
  - name: checkout
    aliases: [shop-checkout]
    owner: team-checkout
    repository: shop-mono
    path: services/checkout
    channel: "#shop-oncall"
    approvers: [U_CHECKOUT]
  - name: payments
    repository: shop-mono
    path: services/payments/
    channel: payments-oncall
    approvers: [U_PAY]
  - name: ledger
    aliases: [ledger-api]
    repository: ledger
    channel: payments-oncall
    approvers: [U_LEDGER]
${extra}`;

const at = (minute: number) => new Date(Date.parse('2026-11-30T09:00:00.000Z') + minute * 60_000).toISOString();
const errors = [
  guardErrorLine('shop-checkout', 'checkout', 'src/price.ts', 'unitPrice', at(0), 'req-c', 'pricing'),
  guardErrorLine('payments', 'payments', 'src/charge.ts', 'splitCharge', at(1), 'req-p', 'charging'),
  guardErrorLine('ledger-api', 'ledger', 'src/balance.ts', 'perAccount', at(2), 'req-l', 'booking'),
  JSON.stringify({ time: at(3), level: 'ERROR', service: 'mystery', message: 'nightly job crashed: TypeError: Cannot read properties of undefined (reading \'rows\')', requestId: 'req-m',
    stack: "TypeError: Cannot read properties of undefined (reading 'rows')\n    at runJob (/srv/mystery/src/job.ts:12:5)" }),
].join('\n') + '\n';

async function settled(w: World, medic: Awaited<ReturnType<World['startMedic']>>, n: number): Promise<Map<string, Incident>> {
  return w.waitFor(async () => {
    // Cards are the delivery job's, a moment after the analysis: wait for them, not only for the state.
    const all = (await medic.store.list({ states: ['awaiting_approval', 'reported'] })).filter((i) => i.card);
    return all.length >= n ? new Map(all.map((i) => [i.service, i])) : undefined;
  }, `${n} analysed incidents with their cards`, 90_000);
}

describe('the service catalog, through the real loop', () => {
  it('routes three services in two repositories (one a monorepo) to their channels, repositories, directories and approvers; an unknown service gets the default channel and no fix', async () => {
    const w = opened(await createWorld({ llm: 'offline' }));
    const remotes = createRemotes(w.dir);
    const catalogFile = join(w.dir, 'catalog.yaml');
    await writeFile(catalogFile, catalogYaml(remotes));
    await w.writeLogs('services.jsonl', errors);
    const medic = await w.startMedic({ MEDIC_CATALOG_FILE: catalogFile, MEDIC_CATALOG_POLL_MS: '0' });
    await medic.startWorkers();

    const byService = await settled(w, medic, 4);
    const checkout = byService.get('shop-checkout')!;
    const payments = byService.get('payments')!;
    const ledger = byService.get('ledger-api')!;
    const mystery = byService.get('mystery')!;

    // Each card in its service's channel.
    expect(checkout.card?.channel).toBe('shop-oncall');
    expect(payments.card?.channel).toBe('payments-oncall');
    expect(ledger.card?.channel).toBe('payments-oncall');
    expect(mystery.card?.channel).toBe('incidents');
    expect(w.chatText()).toContain('#shop-oncall · new card');
    expect(w.chatText()).toContain('#payments-oncall · new card');
    expect(checkout.route).toMatchObject({ service: 'checkout', known: true, repository: 'shop-mono', path: 'services/checkout', owner: 'team-checkout' });
    expect(ledger.route).toMatchObject({ service: 'ledger', known: true, repository: 'ledger' });

    // Candidates and proposals stay inside each service's repository and directory.
    expect(checkout.proposal?.file).toBe('services/checkout/src/price.ts');
    expect(payments.proposal?.file).toBe('services/payments/src/charge.ts');
    expect(ledger.proposal?.file).toBe('src/balance.ts');
    expect(checkout.candidates?.every((f) => f.startsWith('services/checkout/'))).toBe(true);
    expect(payments.candidates?.every((f) => f.startsWith('services/payments/'))).toBe(true);

    // The unknown service: its card says so, and it has no repository, no candidates, no fix.
    expect(mystery.route).toMatchObject({ service: 'mystery', known: false });
    expect(mystery.state).toBe('reported');
    expect(mystery.proposal).toBeUndefined();
    expect(mystery.candidates ?? []).toEqual([]);
    expect(w.chatText()).toContain('is not in the service catalog: no repository, so no fix');

    // A payments approver may not approve a checkout fix: refused and audited, nothing pushed.
    const refused = await medic.commands.approve({ incidentId: checkout.id, proposalHash: checkout.proposal!.contentHash, caller: { userId: 'U_PAY', via: 'slack' } });
    expect(refused).toMatchObject({ ok: false, code: 'ERR_UNAUTHORIZED' });
    const trail = await medic.audit.list({ incidentId: checkout.id });
    expect(trail.some((a) => a.action === 'incident.approve' && a.outcome === 'denied' && a.actor.id === 'U_PAY')).toBe(true);
    expect((await medic.store.get(checkout.id))?.state).toBe('awaiting_approval');
    // Reading outside the card's channel: the service's own people may, another service's may not.
    const dm = (userId: string) => ({ caller: { userId, via: 'slack' as const }, channel: 'D0DIRECT' });
    expect((await medic.commands.status(checkout.id, dm('U_CHECKOUT')))?.incident.id).toBe(checkout.id);
    expect(await medic.commands.status(checkout.id, dm('U_PAY'))).toBeUndefined();
    expect((await medic.commands.list(dm('U_PAY'))).map((v) => v.incident.service).sort()).toEqual(['payments']);

    // Each service's own approver approves; each fix lands in its repository, in its directory.
    for (const [incident, approver] of [[checkout, 'U_CHECKOUT'], [payments, 'U_PAY'], [ledger, 'U_LEDGER']] as const) {
      const approved = await medic.commands.approve({ incidentId: incident.id, proposalHash: incident.proposal!.contentHash, caller: { userId: approver, via: 'slack' } });
      expect(approved.ok, approved.message).toBe(true);
    }
    const fixes = await Promise.all([checkout, payments, ledger].map((i) => awaitFixEnd(w, medic, i.id)));
    expect(fixes.map((f) => [f.state, f.error])).toEqual([['fixed', undefined], ['fixed', undefined], ['fixed', undefined]]);
    const [fc, fp, fl] = fixes;
    expect(fixBranches(remotes.mono).sort()).toEqual([fc!.fix!.branch, fp!.fix!.branch].sort());
    expect(fixBranches(remotes.ledger)).toEqual([fl!.fix!.branch]);
    expect(gitIn(remotes.mono, ['diff', '--name-only', 'main', fc!.fix!.branch])).toBe('services/checkout/src/price.ts');
    expect(gitIn(remotes.mono, ['diff', '--name-only', 'main', fp!.fix!.branch])).toBe('services/payments/src/charge.ts');
    expect(gitIn(remotes.ledger, ['diff', '--name-only', 'main', fl!.fix!.branch])).toBe('src/balance.ts');
    expect(gitIn(remotes.ledger, ['show', `${fl!.fix!.branch}:src/balance.ts`]) + '\n').toBe(balance.good);

    // doctor and /readyz: the catalog, and every repository of it.
    const checks = await medic.checks();
    expect(checks.find((c) => c.name === 'service catalog')).toMatchObject({ ok: true, detail: expect.stringContaining('3 service(s), 2 repositories') });
    const repository = checks.find((c) => c.name === 'code repository')!;
    expect(repository.ok).toBe(true);
    expect(repository.adapter).toContain(remotes.mono);
    expect(repository.adapter).toContain(remotes.ledger);
    expect(checks.find((c) => c.name === 'chat')?.detail).toContain('#incidents, #shop-oncall, #payments-oncall');
  }, 150_000);

  it('lists every problem of a broken catalog at start, and starts on none of it', async () => {
    const w = opened(await createWorld({ llm: 'offline' }));
    const catalogFile = join(w.dir, 'catalog.yaml');
    // Credentials in a remote, an alias naming another service, an undeclared repository…
    const broken = (checkoutExtra: string) => `version: 1
repositories:
  - id: shop
    remote: https://user:secret@example.test/shop.git
services:
  - name: checkout
    repository: shop${checkoutExtra}
  - name: payments
    aliases: [checkout]
    repository: nowhere
`;
    // … and, first, an approver that is no Slack user id.
    await writeFile(catalogFile, broken('\n    approvers: ["not a user id"]'));
    const started = w.startMedic({ MEDIC_CATALOG_FILE: catalogFile });
    await expect(started).rejects.toThrow(/service catalog is invalid/);
    const message = await started.catch((error: Error) => error.message);
    expect(message).toContain('services.0.approvers.0');
    // Schema problems are listed first; a file that parses is checked for references next.
    await writeFile(catalogFile, broken(''));
    const again = await w.startMedic({ MEDIC_CATALOG_FILE: catalogFile }).then(() => 'started', (error: Error) => error.message);
    expect(again).toContain('must not contain credentials');
    expect(again).toContain('alias "checkout" already names service checkout');
    expect(again).toContain('names repository nowhere, which no repositories entry declares');
    expect(again).not.toContain('secret');
  });

  it('picks up a changed catalog without a restart, audits it, and keeps the last good one when an edit is broken', async () => {
    const w = opened(await createWorld({ llm: 'offline' }));
    const remotes = createRemotes(w.dir);
    const catalogFile = join(w.dir, 'catalog.yaml');
    await writeFile(catalogFile, catalogYaml(remotes));
    const medic = await w.startMedic({ MEDIC_CATALOG_FILE: catalogFile, MEDIC_CATALOG_POLL_MS: '200' });
    await medic.startWorkers();

    // A broken edit: the last good catalog stays, the check says why, the refusal is audited.
    await writeFile(catalogFile, catalogYaml(remotes, '  - name: search\n    repository: missing-repo\n'));
    const check = await w.waitFor(async () => (await medic.checks()).find((c) => c.name === 'service catalog' && c.detail.includes('missing-repo')), 'the broken edit to be reported');
    expect(check.detail).toContain('last good catalog is in force');
    expect((await medic.audit.list({})).some((a) => a.action === 'catalog.reload' && a.outcome === 'failed')).toBe(true);

    // A good edit: a new service with its own channel, routed from the next event on.
    await writeFile(catalogFile, catalogYaml(remotes, '  - name: search\n    aliases: [search-api]\n    channel: search-oncall\n  - name: batch\n    channel: search-oncall\n    open: { min_severity: critical }\n'));
    await w.waitFor(async () => (await medic.audit.list({})).some((a) => a.action === 'catalog.reload' && a.outcome === 'done'), 'the reload to be audited');
    await w.writeLogs('search.jsonl', JSON.stringify({ time: at(5), level: 'ERROR', service: 'search-api', message: 'index query failed: Error: shard 3 unavailable', requestId: 'req-s' }) + '\n');
    const search = await w.waitFor(async () => (await medic.store.list({ states: ['reported', 'awaiting_approval'] })).find((i) => i.service === 'search-api' && i.card), 'the search incident and its card');
    expect(search.card?.channel).toBe('search-oncall');
    expect(search.route).toMatchObject({ service: 'search', known: true });
    expect(search.route?.repository).toBeUndefined();
    expect(search.proposal).toBeUndefined();

    // The new service opens only at its severity: its ERROR is not an incident, its FATAL is.
    await w.writeLogs('batch.jsonl', [
      JSON.stringify({ time: at(6), level: 'ERROR', service: 'batch', message: 'export retried: Error: upstream busy', requestId: 'req-b1' }),
      JSON.stringify({ time: at(7), level: 'FATAL', service: 'batch', message: 'export aborted: Error: disk full', requestId: 'req-b2' }),
    ].join('\n') + '\n');
    const batch = await w.waitFor(async () => (await medic.store.list({ states: ['reported', 'awaiting_approval'] })).filter((i) => i.service === 'batch').at(0), 'the batch incident');
    expect(batch.severity).toBe('critical');
    expect((await medic.store.list()).filter((i) => i.service === 'batch')).toHaveLength(1);
  }, 90_000);

  it('asks the CODEOWNERS owners of the changed file to review the PR, and names them on the card', async () => {
    const w = opened(await createWorld({ llm: 'offline' }));
    const github = opened(await startGitHubServer({ owner: 'acme', repo: 'shop-mono', tokens: [TOKEN], collaborators: ['chen'], teams: ['payments', 'platform'] }));
    const remotes = createRemotes(w.dir);
    const catalogFile = join(w.dir, 'catalog.yaml');
    await writeFile(catalogFile, catalogYaml(remotes, '', 'acme/shop-mono'));
    await w.writeLogs('services.jsonl', errors.split('\n').slice(0, 2).join('\n') + '\n');
    const medic = await w.startMedic({ MEDIC_CATALOG_FILE: catalogFile, MEDIC_CATALOG_POLL_MS: '0', GITHUB_TOKEN: TOKEN, GITHUB_API_URL: github.url });
    await medic.startWorkers();
    const byService = await settled(w, medic, 2);
    for (const [service, approver] of [['shop-checkout', 'U_CHECKOUT'], ['payments', 'U_PAY']] as const) {
      const incident = byService.get(service)!;
      const approved = await medic.commands.approve({ incidentId: incident.id, proposalHash: incident.proposal!.contentHash, caller: { userId: approver, via: 'slack' } });
      expect(approved.ok, approved.message).toBe(true);
    }
    const fixed = await Promise.all([byService.get('shop-checkout')!, byService.get('payments')!].map((i) => awaitFixEnd(w, medic, i.id)));
    // Last matching pattern wins: the service directory's owners, not the catch-all's.
    expect(fixed.map((f) => f.fix?.pullRequest?.reviewers)).toEqual([['@chen'], ['@acme/payments']]);
    const asks = github.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/requested_reviewers'));
    expect(asks).toHaveLength(2);
    expect(asks.map((r) => r.body as unknown)).toEqual(expect.arrayContaining([{ reviewers: [], team_reviewers: ['payments'] }, { reviewers: ['chen'], team_reviewers: [] }]));
    const pulls = github.pulls.map((p) => [p.head, p.requestedReviewers, p.requestedTeams]);
    expect(pulls).toEqual(expect.arrayContaining([[fixed[0]!.fix!.branch, ['chen'], []], [fixed[1]!.fix!.branch, [], ['payments']]]));
    await w.waitFor(async () => w.chatText().includes('review requested from @chen'), 'the card naming the code owners');
  }, 120_000);
});
