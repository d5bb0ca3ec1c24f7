import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitRepository } from '../../src/adapters/git/git-repository.js';
import { buildRemote, gitIn, type TestRemote } from './build-remote.js';

describe('git history reads (blame, function blame, a commit\'s change to one file)', () => {
  let remote: TestRemote;
  let scratch: string;
  const repoOf = () => createGitRepository({ remoteUrl: remote.bare, branch: 'main', workDir: join(remote.root, 'data', 'repo') });
  beforeEach(() => {
    remote = buildRemote();
    scratch = join(remote.root, 'scratch');
  });
  afterEach(() => remote.cleanup());

  it('blames a line through a rename, to the commit that last changed it and its path then', async () => {
    const first = gitIn(scratch, 'rev-parse', 'HEAD').trim();
    gitIn(scratch, 'mv', 'src/payments/client.ts', 'src/payments/payment-client.ts');
    gitIn(scratch, 'commit', '--quiet', '-m', 'payments: rename the client module');
    gitIn(scratch, 'push', '--quiet', 'origin', 'main');
    const bump = remote.commitToMain({ 'src/payments/payment-client.ts': 'export function authId(body: { auth: { id: string } | null }): string {\n  return body.auth?.id ?? "";\n}\n' }, 'payments: tolerate a missing auth');
    const repo = repoOf();
    await repo.sync();

    const changed = await repo.blame('src/payments/payment-client.ts', 2);
    expect(changed).toMatchObject({ sha: bump, subject: 'payments: tolerate a missing auth', author: 'Test', path: 'src/payments/payment-client.ts' });
    expect(Date.parse(changed?.date ?? '')).toBeGreaterThan(Date.now() - 60_000);

    // Line 1 was never touched after the first commit: blame follows the file back to its old name.
    expect(await repo.blame('src/payments/payment-client.ts', 1)).toMatchObject({ sha: first, path: 'src/payments/client.ts', subject: 'initial service' });
    expect(await repo.blame('src/payments/payment-client.ts', 999)).toBeUndefined();
    expect(await repo.blame('src/not-there.ts', 1)).toBeUndefined();
  });

  it("finds the last commit that changed a function, and nothing for a name git cannot find or must not see", async () => {
    const sha = remote.commitToMain({ 'src/checkout/discounts.ts': 'export function perItem(amount: number, count: number): number {\n  if (count === 0) return 0;\n  return Math.floor(amount / count);\n}\n' }, 'checkout: guard empty carts');
    const repo = repoOf();
    await repo.sync();
    expect(await repo.blameFunction('src/checkout/discounts.ts', 'perItem')).toMatchObject({ sha, subject: 'checkout: guard empty carts' });
    expect(await repo.blameFunction('src/checkout/discounts.ts', 'Cart.perItem')).toMatchObject({ sha });
    expect(await repo.blameFunction('src/checkout/discounts.ts', 'noSuchFunction')).toBeUndefined();
    expect(await repo.blameFunction('src/checkout/discounts.ts', '--output=/tmp/x')).toBeUndefined();
    await expect(repo.blame('../outside.ts', 1)).rejects.toMatchObject({ code: 'ERR_FIX_REFUSED' });
  });

  it("reads one file just before and after a commit, across a rename made by that commit", async () => {
    const repo = repoOf();
    gitIn(scratch, 'mv', 'src/checkout/discounts.ts', 'src/checkout/spread.ts');
    gitIn(scratch, 'commit', '--quiet', '-m', 'checkout: rename');
    gitIn(scratch, 'push', '--quiet', 'origin', 'main');
    const renamed = gitIn(scratch, 'rev-parse', 'HEAD').trim();
    const edited = remote.commitToMain({ 'src/checkout/spread.ts': 'export const x = 1;\n' }, 'checkout: rewrite');
    await repo.sync();
    expect(await repo.commitFileChange(edited, 'src/checkout/spread.ts')).toMatchObject({ pathBefore: 'src/checkout/spread.ts', after: 'export const x = 1;\n', before: expect.stringContaining('perItem') });
    const moved = await repo.commitFileChange(renamed, 'src/checkout/spread.ts');
    expect(moved).toMatchObject({ pathBefore: 'src/checkout/discounts.ts' });
    expect(moved?.before).toBe(moved?.after);
    await expect(repo.commitFileChange('HEAD~1', 'README.md')).rejects.toMatchObject({ code: 'ERR_VALIDATION_FAILED' });
  });
});
