import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGitMergeState } from '../../src/adapters/git/git-merge-state.js';
import { createNoPullRequests } from '../../src/adapters/github/no-pull-requests.js';
import { ErrorCode } from '../../src/domain/errors.js';
import { useRemoteClone, gitIn, remoteBranches, type TestRemote } from './build-remote.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const BRANCH = 'fix/INC-9-20260301102030';

/** A clone of the remote where a developer works: pushes fix branches and merges them into main. */
function developer(remote: TestRemote) {
  const dir = join(remote.root, 'dev');
  gitIn(remote.root, 'clone', '--quiet', remote.bare, dir);
  const at = (iso: string) => ({ GIT_COMMITTER_DATE: iso, GIT_AUTHOR_DATE: iso });
  const git = (env: Record<string, string>, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', '-c', 'commit.gpgsign=false', ...args], {
      cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    }).trim();
  return {
    pushFix(branch: string, file: string): string {
      git({}, 'checkout', '--quiet', '-B', branch, 'origin/main');
      mkdirSync(join(dir, 'src'), { recursive: true });
      writeFileSync(join(dir, file), `fixed ${branch}\n`);
      git({}, 'add', '-A');
      git({}, 'commit', '--quiet', '-m', `fix on ${branch}`);
      git({}, 'push', '--quiet', 'origin', branch);
      return git({}, 'rev-parse', 'HEAD');
    },
    merge(branch: string, how: '--no-ff' | '--ff-only', iso = '2026-03-01T11:30:00Z'): string {
      git({}, 'fetch', '--quiet', 'origin');
      git({}, 'checkout', '--quiet', '-B', 'main', 'origin/main');
      git(at(iso), 'merge', '--quiet', how, '-m', `Merge ${branch}`, `origin/${branch}`);
      git({}, 'push', '--quiet', 'origin', 'main');
      return git({}, 'rev-parse', 'HEAD');
    },
    deleteRemote(branch: string) {
      git({}, 'push', '--quiet', 'origin', '--delete', branch);
    },
  };
}

describe('merge state on a plain git remote (no code host)', () => {
  const clone = useRemoteClone();

  it('says merged once the pushed fix commit is in the default branch, with the merge commit and its date', async () => {
    const dev = developer(clone.remote);
    const mergeState = createGitMergeState({ remoteUrl: clone.remote.bare, branch: 'main', workDir: clone.workDir, now: () => NOW });
    expect(await mergeState({ branch: BRANCH })).toEqual({ merged: false });
    const fix = dev.pushFix(BRANCH, 'src/a.ts');
    expect(await mergeState({ branch: BRANCH })).toEqual({ merged: false });

    const merge = dev.merge(BRANCH, '--no-ff', '2026-03-01T11:30:00Z');
    expect(merge).not.toBe(fix);
    expect(await mergeState({ branch: BRANCH })).toEqual({ merged: true, commit: merge, mergedAt: '2026-03-01T11:30:00.000Z' });
    // Later work on main keeps naming the commit that brought the fix in.
    clone.remote.commitToMain({ 'README.md': '# shop, later\n' }, 'later work');
    expect(await mergeState({ branch: BRANCH })).toEqual({ merged: true, commit: merge, mergedAt: '2026-03-01T11:30:00.000Z' });
    // The branch deleted after the merge: still merged, from the commit Medic fetched.
    dev.deleteRemote(BRANCH);
    expect(await mergeState({ branch: BRANCH })).toEqual({ merged: true, commit: merge, mergedAt: '2026-03-01T11:30:00.000Z' });
    // It all happened in Medic's clone: fetched refs, nothing checked out or pushed.
    expect(gitIn(clone.workDir, 'rev-parse', 'refs/remotes/origin/main').trim()).toBe(remoteBranches(clone.remote.bare).get('main'));
    expect([...remoteBranches(clone.remote.bare).keys()]).toEqual(['main']);
  });

  it('after a fast-forward, names the fix commit itself and the time it was first seen merged', async () => {
    const dev = developer(clone.remote);
    const mergeState = createGitMergeState({ remoteUrl: clone.remote.bare, branch: 'main', workDir: clone.workDir, now: () => NOW });
    const fix = dev.pushFix(BRANCH, 'src/a.ts');
    expect(dev.merge(BRANCH, '--ff-only')).toBe(fix);
    expect(await mergeState({ branch: BRANCH })).toEqual({ merged: true, commit: fix, mergedAt: NOW.toISOString() });
    clone.remote.commitToMain({ 'README.md': '# shop, later\n' }, 'later work');
    expect(await mergeState({ branch: BRANCH })).toEqual({ merged: true, commit: fix, mergedAt: NOW.toISOString() });
  });

  it('is not merged while another fix is, and refuses anything but a fix branch', async () => {
    const dev = developer(clone.remote);
    const mergeState = createGitMergeState({ remoteUrl: clone.remote.bare, branch: 'main', workDir: clone.workDir, now: () => NOW });
    dev.pushFix(BRANCH, 'src/a.ts');
    dev.pushFix('fix/INC-10-20260301102031', 'src/b.ts');
    dev.merge('fix/INC-10-20260301102031', '--no-ff');
    expect(await mergeState({ branch: BRANCH })).toEqual({ merged: false });
    expect((await mergeState({ branch: 'fix/INC-10-20260301102031' })).merged).toBe(true);
    await expect(mergeState({ branch: 'main' })).rejects.toMatchObject({ code: ErrorCode.FixRefused });
    await expect(mergeState({ branch: 'fix/../main' })).rejects.toMatchObject({ code: ErrorCode.FixRefused });
    await expect(mergeState({ branch: '--upload-pack=evil' })).rejects.toMatchObject({ code: ErrorCode.FixRefused });
  });

  it("never works in a repository it did not create (the operator's checkout)", async () => {
    const checkout = join(clone.remote.root, 'operator');
    gitIn(clone.remote.root, 'clone', '--quiet', clone.remote.bare, checkout);
    const mergeState = createGitMergeState({ remoteUrl: clone.remote.bare, branch: 'main', workDir: checkout });
    await expect(mergeState({ branch: BRANCH })).rejects.toMatchObject({ code: ErrorCode.ConfigInvalid });
  });

  it('is the no-code-host PR port\'s merge state when given', async () => {
    const dev = developer(clone.remote);
    const prs = createNoPullRequests({ remote: clone.remote.bare, mergeState: createGitMergeState({ remoteUrl: clone.remote.bare, branch: 'main', workDir: clone.workDir, now: () => NOW }) });
    dev.pushFix(BRANCH, 'src/a.ts');
    const merge = dev.merge(BRANCH, '--no-ff');
    expect(await prs.mergeState?.({ branch: BRANCH })).toMatchObject({ merged: true, commit: merge });
    expect('mergeState' in createNoPullRequests({ remote: clone.remote.bare })).toBe(false);
  });
});
