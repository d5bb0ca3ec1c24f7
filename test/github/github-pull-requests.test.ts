import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createGitHubClient, createGitHubTokenSource } from '../../src/adapters/github/github-client.js';
import { createGitHubPullRequests } from '../../src/adapters/github/github-pull-requests.js';
import { createNoPullRequests } from '../../src/adapters/github/no-pull-requests.js';
import { ErrorCode } from '../../src/domain/errors.js';
import { startGitHubServer, type LoopbackGitHub } from '../loopback/github-server.js';

const PAT = 'ghp_loopbackPersonalAccessToken0123456789';
const input = { branch: 'fix/INC-1-20260301102030', title: 'fix(INC-1): guard the empty cart', body: 'Root cause: division by zero.' };

describe('createGitHubPullRequests against a loopback GitHub', () => {
  let github: LoopbackGitHub | undefined;
  afterEach(async () => {
    await github?.close();
    github = undefined;
  });

  it('opens a draft pull request from the fix branch into the default branch', async () => {
    github = await startGitHubServer({ owner: 'acme', repo: 'shop', tokens: [PAT] });
    const prs = createGitHubPullRequests({ baseUrl: github.url, owner: 'acme', repo: 'shop', auth: { token: PAT }, defaultBranch: 'main' });
    const pr = await prs.open(input);
    expect(pr).toEqual({ number: 1, url: `${github.url}/acme/shop/pull/1` });
    expect(github.pulls[0]).toMatchObject({ head: input.branch, base: 'main', draft: true, title: input.title, body: input.body });
    expect(github.requests[0]?.authorization).toBe(`token ${PAT}`);
    expect((await prs.check()).ok).toBe(true);
  });

  it('falls back to a normal pull request where drafts are not supported', async () => {
    github = await startGitHubServer({ owner: 'acme', repo: 'shop', tokens: [PAT], draftUnsupported: true });
    const prs = createGitHubPullRequests({ baseUrl: github.url, owner: 'acme', repo: 'shop', auth: { token: PAT }, defaultBranch: 'main' });
    const pr = await prs.open(input);
    expect(pr?.number).toBe(1);
    expect(github.pulls).toHaveLength(1);
    expect(github.pulls[0]?.draft).toBe(false);
    expect(github.requests.filter((r) => r.method === 'POST').map((r) => r.body.draft)).toEqual([true, false]);
  });

  it('reuses the pull request that already exists for the branch', async () => {
    github = await startGitHubServer({ owner: 'acme', repo: 'shop', tokens: [PAT] });
    const prs = createGitHubPullRequests({ baseUrl: github.url, owner: 'acme', repo: 'shop', auth: { token: PAT }, defaultBranch: 'main' });
    const first = await prs.open(input);
    const again = await prs.open(input);
    expect(again).toEqual(first);
    expect(github.pulls).toHaveLength(1);
    expect(github.requests.some((r) => r.method === 'GET' && r.path.includes(`head=acme%3A${encodeURIComponent(input.branch).replace(/%2F/g, '%2F')}`))).toBe(true);
  });

  it('reports check runs of the PR head as pending, success or failure', async () => {
    github = await startGitHubServer({ owner: 'acme', repo: 'shop', tokens: [PAT] });
    const prs = createGitHubPullRequests({ baseUrl: github.url, owner: 'acme', repo: 'shop', auth: { token: PAT }, defaultBranch: 'main' });
    expect(await prs.watchChecks(input.branch)).toMatchObject({ state: 'pending', total: 0 });
    github.checkRuns.set(input.branch, [{ name: 'test', status: 'in_progress', conclusion: null }, { name: 'lint', status: 'completed', conclusion: 'success' }]);
    expect(await prs.watchChecks(input.branch)).toMatchObject({ state: 'pending', pending: ['test'] });
    github.checkRuns.set(input.branch, [{ name: 'test', status: 'completed', conclusion: 'success' }, { name: 'lint', status: 'completed', conclusion: 'skipped' }]);
    expect(await prs.watchChecks(input.branch)).toMatchObject({ state: 'success', total: 2 });
    github.checkRuns.set(input.branch, [{ name: 'test', status: 'completed', conclusion: 'failure' }, { name: 'lint', status: 'in_progress', conclusion: null }]);
    expect(await prs.watchChecks(input.branch)).toMatchObject({ state: 'failure', failing: ['test'] });
  });

  it('authenticates as a GitHub App and refreshes the installation token before it expires', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    let clock = Date.now();
    github = await startGitHubServer({ owner: 'acme', repo: 'shop', app: { id: 4242, publicKeyPem: publicKey, installationId: 77, tokenTtlMs: 60 * 60_000 }, now: () => clock });
    const octokit = createGitHubClient({ baseUrl: github.url, auth: { appId: 4242, privateKey, installationId: 77 }, now: () => clock });
    const prs = createGitHubPullRequests({ owner: 'acme', repo: 'shop', defaultBranch: 'main', auth: { token: 'unused' }, octokit });
    const gitToken = createGitHubTokenSource(octokit);

    await prs.open(input);
    expect(github.issuedTokens).toHaveLength(1);
    expect(await gitToken()).toBe(github.issuedTokens[0]);
    await prs.watchChecks(input.branch);
    expect(github.issuedTokens).toHaveLength(1);

    clock += 58 * 60_000; // inside the refresh margin of a one-hour token, which is still valid
    await prs.watchChecks(input.branch);
    expect(github.issuedTokens).toHaveLength(2);
    expect(github.requests.at(-1)?.authorization).toBe(`token ${github.issuedTokens[1]}`);
    expect(await gitToken()).toBe(github.issuedTokens[1]);
    expect(github.issuedTokens).toHaveLength(2);

    clock += 61 * 60_000; // past expiry: the server would answer 401 to the old token
    await prs.open({ ...input, branch: 'fix/INC-2-20260301120000' });
    expect(github.issuedTokens).toHaveLength(3);
    expect(github.requests.at(-1)?.authorization).toBe(`token ${github.issuedTokens[2]}`);
    expect(github.requests.filter((r) => r.path.endsWith('/access_tokens')).every((r) => /^bearer [\w-]+\.[\w-]+\.[\w-]+$/.test(r.authorization ?? ''))).toBe(true);
  });

  it('turns GitHub refusals into coded errors that name what to check, without the token', async () => {
    github = await startGitHubServer({ owner: 'acme', repo: 'shop', tokens: [PAT] });
    const wrong = 'ghp_wrongwrongwrongwrongwrongwrong0000';
    const prs = createGitHubPullRequests({ baseUrl: github.url, owner: 'acme', repo: 'shop', auth: { token: wrong }, defaultBranch: 'main' });
    const error = (await prs.open(input).catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ code: ErrorCode.UpstreamRejected, message: expect.stringContaining('GITHUB_TOKEN') });
    expect(error.message).not.toContain(wrong);
    const missing = createGitHubPullRequests({ baseUrl: github.url, owner: 'acme', repo: 'nope', auth: { token: PAT }, defaultBranch: 'main' });
    expect((await missing.check()).detail).toContain('GITHUB_REPOSITORY');
    await expect(missing.open({ ...input, branch: 'main' })).rejects.toMatchObject({ code: ErrorCode.FixRefused });
  });
});

describe('createNoPullRequests', () => {
  it('opens nothing and says where branches go', async () => {
    const none = createNoPullRequests({ remote: '/data/remote.git' });
    expect(await none.open(input)).toBeUndefined();
    expect(await none.check()).toMatchObject({ ok: true, detail: 'no code host configured: branches are pushed to /data/remote.git, no PR' });
  });
});
