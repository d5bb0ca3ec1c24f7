/**
 * A repository whose default branch is not `main` works with no branch setting: Medic follows
 * the remote's HEAD, and a branch the remote lacks is an error naming MEDIC_REPO_BRANCH.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGitRepository } from '../../src/adapters/git/git-repository.js';
import { parseSymref, remoteDefaultBranch } from '../../src/adapters/git/remote-head.js';
import { repositoryBranch } from '../../src/app/create-service-catalog.js';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' } });
let root: string | undefined;
afterEach(() => { if (root) rmSync(root, { recursive: true, force: true }); root = undefined; });

function masterRemote(): string {
  root = mkdtempSync(join(tmpdir(), 'medic-head-'));
  const work = join(root, 'work');
  git(root, 'init', '--quiet', '--initial-branch=master', work);
  writeFileSync(join(work, 'app.py'), 'print(1)\n');
  git(work, 'add', '.');
  git(work, 'commit', '--quiet', '-m', 'first');
  const bare = join(root, 'remote.git');
  git(root, 'clone', '--quiet', '--bare', work, bare);
  return bare;
}

describe('following the remote HEAD', () => {
  it('reads the branch a remote HEAD names, and uses it when MEDIC_REPO_BRANCH is unset', async () => {
    const remote = masterRemote();
    expect(await remoteDefaultBranch(remote)).toBe('master');
    expect(await repositoryBranch({ MEDIC_REPO_REMOTE: remote })).toBe('master');
    expect(await repositoryBranch({ MEDIC_REPO_REMOTE: remote, MEDIC_REPO_BRANCH: 'release' })).toBe('release');
    const repo = createGitRepository({ remoteUrl: remote, branch: await repositoryBranch({ MEDIC_REPO_REMOTE: remote }), workDir: join(root!, 'clone') });
    await repo.sync();
    expect(await repo.listFiles()).toEqual(['app.py']);
  });

  it('falls back to main when the remote does not answer, and names MEDIC_REPO_BRANCH when the branch is missing', async () => {
    const remote = masterRemote();
    expect(await repositoryBranch({ MEDIC_REPO_REMOTE: join(root!, 'nowhere.git') })).toBe('main');
    const repo = createGitRepository({ remoteUrl: remote, branch: 'main', workDir: join(root!, 'clone') });
    await expect(repo.sync()).rejects.toThrow(/MEDIC_REPO_BRANCH/);
  });

  it('parses git ls-remote --symref output', () => {
    expect(parseSymref('ref: refs/heads/trunk\tHEAD\n0123abcd\tHEAD\n')).toBe('trunk');
    expect(parseSymref('0123abcd\tHEAD\n')).toBeUndefined();
  });
});
