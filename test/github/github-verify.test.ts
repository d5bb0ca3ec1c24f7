import { afterEach, describe, expect, it } from 'vitest';
import { createGitHubPullRequests } from '../../src/adapters/github/github-pull-requests.js';
import { MAX_LOOKUPS } from '../../src/adapters/github/github-verify.js';
import { ErrorCode } from '../../src/domain/errors.js';
import { startGitHubServer, type LoopbackGitHub } from '../loopback/github-server.js';

const PAT = 'ghp_loopbackPersonalAccessToken0123456789';
const BRANCH = 'fix/INC-7-20260301102030';
const sha = (c: string) => c.repeat(40).slice(0, 40);
const BASE = sha('a');
const FIX = sha('b');
const MERGE = sha('c');
const LATER = sha('d');
const OTHER = sha('e');
const MERGED_AT = '2026-03-01T11:00:00Z';
const after = (minutes: number) => new Date(Date.parse(MERGED_AT) + minutes * 60_000).toISOString();

/** main: BASE → MERGE (BASE + FIX) → LATER; OTHER on a side branch that never merged. */
async function world(): Promise<LoopbackGitHub> {
  const github = await startGitHubServer({ owner: 'acme', repo: 'shop', tokens: [PAT] });
  github.addCommit(BASE);
  github.addCommit(FIX, [BASE]);
  github.addCommit(OTHER, [BASE]);
  github.branches.set('main', BASE);
  github.branches.set(BRANCH, FIX);
  return github;
}

async function openFix(prs: ReturnType<typeof client>): Promise<{ number: number }> {
  const pr = await prs.open({ branch: BRANCH, title: 'fix', body: 'b' });
  if (!pr) throw new Error('no pull request opened');
  return pr;
}

const client = (github: LoopbackGitHub) => createGitHubPullRequests({ baseUrl: github.url, owner: 'acme', repo: 'shop', auth: { token: PAT }, defaultBranch: 'main' });

describe('GitHub merge state and deploy markers, with Octokit against a loopback GitHub', () => {
  let github: LoopbackGitHub | undefined;
  afterEach(async () => {
    await github?.close();
    github = undefined;
  });

  it('follows the PR to merged: by number, or found by its head branch', async () => {
    github = await world();
    const prs = client(github);
    expect(await prs.mergeState!({ branch: BRANCH })).toEqual({ merged: false });
    const pr = await openFix(prs);
    expect(await prs.mergeState!({ branch: BRANCH, pullNumber: pr.number })).toEqual({ merged: false });
    github.mergePull(pr.number, { mergeCommitSha: MERGE, mergedAt: MERGED_AT });
    expect(await prs.mergeState!({ branch: BRANCH, pullNumber: pr.number })).toEqual({ merged: true, mergedAt: '2026-03-01T11:00:00.000Z', commit: MERGE });
    expect(await prs.mergeState!({ branch: BRANCH })).toEqual({ merged: true, mergedAt: '2026-03-01T11:00:00.000Z', commit: MERGE });
    expect(github.requests.some((r) => r.method === 'GET' && r.path.startsWith('/repos/acme/shop/pulls?') && r.path.includes('state=all'))).toBe(true);
    expect(github.requests.filter((r) => r.path === `/repos/acme/shop/pulls/${pr.number}`)).toHaveLength(3);
  });

  it('finds the first successful deployment containing the merge commit, a later commit\'s deploy included', async () => {
    github = await world();
    const prs = client(github);
    const pr = await openFix(prs);
    github.mergePull(pr.number, { mergeCommitSha: MERGE, mergedAt: MERGED_AT });
    github.addCommit(LATER, [MERGE]);
    // Before the merge (old code), another environment, a side branch, a failed deploy: none count.
    const old = github.createDeployment({ sha: BASE, createdAt: after(-30) });
    github.addDeploymentStatus(old.id, 'success', after(-29));
    const staging = github.createDeployment({ sha: MERGE, environment: 'staging', createdAt: after(1) });
    github.addDeploymentStatus(staging.id, 'success', after(2));
    const side = github.createDeployment({ sha: OTHER, createdAt: after(3) });
    github.addDeploymentStatus(side.id, 'success', after(4));
    expect(await prs.deployment!(MERGE, MERGED_AT, 'github-deployment', 'production')).toBeUndefined();

    const later = github.createDeployment({ sha: LATER, createdAt: after(5) });
    github.addDeploymentStatus(later.id, 'in_progress', after(6));
    expect(await prs.deployment!(MERGE, MERGED_AT, 'github-deployment', 'production')).toBeUndefined();
    github.addDeploymentStatus(later.id, 'success', after(9));
    expect(await prs.deployment!(MERGE, MERGED_AT, 'github-deployment', 'production')).toEqual({ at: after(9), marker: `deployment production #${later.id}` });
    // The staging deploy of the merge commit itself, without an environment filter.
    expect(await prs.deployment!(MERGE, MERGED_AT, 'github-deployment')).toEqual({ at: after(2), marker: `deployment staging #${staging.id}` });
    expect(github.requests.some((r) => r.path === `/repos/acme/shop/compare/${MERGE}...${OTHER}?per_page=1`)).toBe(true);
    expect(github.requests.some((r) => r.path.startsWith('/repos/acme/shop/deployments?') && r.path.includes('environment=production'))).toBe(true);
  });

  it('finds the first published release whose tag contains the commit', async () => {
    github = await world();
    const prs = client(github);
    const pr = await openFix(prs);
    github.mergePull(pr.number, { mergeCommitSha: MERGE, mergedAt: MERGED_AT });
    github.addCommit(LATER, [MERGE]);
    github.createRelease({ tag: 'v1.0.0', sha: BASE, publishedAt: after(-60) });
    github.createRelease({ tag: 'v1.0.1-side', sha: OTHER, publishedAt: after(2) });
    github.createRelease({ tag: 'v1.1.0', sha: LATER, draft: true, createdAt: after(3) });
    expect(await prs.deployment!(MERGE, MERGED_AT, 'github-release')).toBeUndefined();
    github.createRelease({ tag: 'v1.1.0-rc', sha: LATER, publishedAt: after(10) });
    github.createRelease({ tag: 'v1.2.0', sha: LATER, publishedAt: after(20) });
    expect(await prs.deployment!(MERGE, MERGED_AT, 'github-release')).toEqual({ at: after(10), marker: 'release v1.1.0-rc' });
  });

  it('keeps the API calls bounded however many deployments there are', async () => {
    github = await world();
    const prs = client(github);
    for (let i = 0; i < 40; i++) github.createDeployment({ sha: OTHER, createdAt: after(i + 1) });
    const before = github.requests.length;
    expect(await prs.deployment!(MERGE, MERGED_AT, 'github-deployment', 'production')).toBeUndefined();
    // One list, then at most MAX_LOOKUPS compares (all the same sha: one compare is enough).
    expect(github.requests.length - before).toBe(2);
    for (let i = 0; i < 40; i++) {
      const c = sha('f').slice(0, 38) + String(i).padStart(2, '0');
      github.addCommit(c, [BASE]);
      github.createDeployment({ sha: c, createdAt: after(i + 1) });
    }
    const mark = github.requests.length;
    expect(await prs.deployment!(MERGE, MERGED_AT, 'github-deployment', 'production')).toBeUndefined();
    expect(github.requests.length - mark).toBeLessThanOrEqual(1 + MAX_LOOKUPS);
  });

  it('refuses bad input and maps GitHub refusals to coded errors', async () => {
    github = await world();
    const prs = client(github);
    await expect(prs.deployment!('not a sha', MERGED_AT, 'github-deployment')).rejects.toMatchObject({ code: ErrorCode.ValidationFailed });
    await expect(prs.deployment!(MERGE, 'yesterday', 'github-release')).rejects.toMatchObject({ code: ErrorCode.ValidationFailed });
    await expect(prs.mergeState!({ branch: 'main' })).rejects.toMatchObject({ code: ErrorCode.ValidationFailed });
    await expect(prs.mergeState!({ branch: BRANCH, pullNumber: 99 })).rejects.toMatchObject({ code: ErrorCode.UpstreamRejected, message: expect.stringContaining('404') });
    const wrong = createGitHubPullRequests({ baseUrl: github.url, owner: 'acme', repo: 'shop', auth: { token: 'ghp_wrongwrongwrongwrongwrongwrong0000' }, defaultBranch: 'main' });
    const error = (await wrong.deployment!(MERGE, MERGED_AT, 'github-release').catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ code: ErrorCode.UpstreamRejected, message: expect.stringContaining('GITHUB_TOKEN') });
    expect(error.message).not.toContain('ghp_wrong');
  });
});
