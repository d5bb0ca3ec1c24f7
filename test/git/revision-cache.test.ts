import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGitRepository } from '../../src/adapters/git/git-repository.js';
import { readHeadRevision } from '../../src/adapters/git/head-revision.js';
import { createRevisionCachedRepository } from '../../src/adapters/git/revision-cache.js';
import type { CodeRepository } from '../../src/ports/code.js';
import { SAMPLE_FILES, useRemoteClone, gitIn } from './build-remote.js';

/** The real clone, counting what reaches git or the disk. */
function counted(repo: CodeRepository) {
  const calls = { listFiles: 0, readFile: 0, recentChanges: 0 };
  const wrapped: CodeRepository = {
    ...repo,
    listFiles: () => (calls.listFiles++, repo.listFiles()),
    readFile: (path) => (calls.readFile++, repo.readFile(path)),
    recentChanges: (...args) => (calls.recentChanges++, repo.recentChanges(...args)),
  };
  return { calls, wrapped };
}

/** A scratch clone of `bare` that commits at given dates (author and committer) and pushes to main. */
function datedCommits(bare: string, root: string) {
  const dir = join(root, 'dated');
  const git = (args: string[], date?: string) =>
    execFileSync('git', ['-c', 'user.name=Dana', '-c', 'user.email=dana@example.com', '-c', 'commit.gpgsign=false', ...args], {
      cwd: dir, encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}) },
    });
  execFileSync('git', ['clone', '--quiet', bare, dir]);
  return {
    commit(files: Record<string, string>, message: string, date: string) {
      for (const [file, content] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), content);
      }
      git(['add', '-A']);
      git(['commit', '--quiet', '-m', message], date);
    },
    git,
    push: () => git(['push', '--quiet', 'origin', 'HEAD:main']),
  };
}

describe('the revision cache over a real clone', () => {
  const clone = useRemoteClone();

  it('reads HEAD from .git as git rev-parse does, and nothing before the clone exists', async () => {
    expect(await readHeadRevision(clone.workDir)).toBeUndefined();
    const repo = createGitRepository({ remoteUrl: clone.remote.bare, branch: 'main', workDir: clone.workDir });
    await repo.sync();
    expect(await readHeadRevision(clone.workDir)).toBe(gitIn(clone.workDir, 'rev-parse', 'HEAD').trim());
    gitIn(clone.workDir, 'pack-refs', '--all');
    expect(await readHeadRevision(clone.workDir)).toBe(gitIn(clone.workDir, 'rev-parse', 'HEAD').trim());
  });

  it('reads files and git logs once per commit, and again once the clone moves on', async () => {
    const git = createGitRepository({ remoteUrl: clone.remote.bare, branch: 'main', workDir: clone.workDir });
    await git.sync();
    const { calls, wrapped } = counted(git);
    const repo = createRevisionCachedRepository(wrapped, { revision: () => readHeadRevision(clone.workDir) });
    for (let incident = 0; incident < 3; incident++) {
      expect(await repo.listFiles()).toEqual(expect.arrayContaining(Object.keys(SAMPLE_FILES)));
      expect(await repo.readFile('src/checkout/discounts.ts')).toBe(SAMPLE_FILES['src/checkout/discounts.ts']);
      expect(await repo.recentChanges(['src/checkout/discounts.ts'], 3650, 10)).not.toHaveLength(0);
    }
    expect(calls).toEqual({ listFiles: 1, readFile: 1, recentChanges: 1 });

    clone.remote.commitToMain({ 'src/checkout/discounts.ts': 'export const fixed = true;\n' }, 'checkout: change discounts');
    await git.sync(); // another worker process syncing the shared clone
    expect(await repo.readFile('src/checkout/discounts.ts')).toBe('export const fixed = true;\n');
    expect((await repo.recentChanges(['src/checkout/discounts.ts'], 3650, 10))[0]?.subject).toBe('checkout: change discounts');
    expect(calls).toEqual({ listFiles: 1, readFile: 2, recentChanges: 2 });
  });

  it('passes the window\'s end through: changes before an old first event are found, later ones are not', async () => {
    const git = createGitRepository({ remoteUrl: clone.remote.bare, branch: 'main', workDir: clone.workDir });
    await git.sync();
    const repo = createRevisionCachedRepository(git, { revision: () => readHeadRevision(clone.workDir) });
    const [latest] = await repo.recentChanges(['src/checkout/discounts.ts'], 3650, 10);
    expect(latest).toBeDefined();
    const before = new Date(Date.parse(latest!.date) - 1_000).toISOString();
    // A window ending before the newest change excludes it; cached per end, so the two never mix.
    expect((await repo.recentChanges(['src/checkout/discounts.ts'], 3650, 10, before)).map((c) => c.sha)).not.toContain(latest!.sha);
    expect((await repo.recentChanges(['src/checkout/discounts.ts'], 3650, 10)).map((c) => c.sha)).toContain(latest!.sha);
  });

  it('answers every window and file set from one read of the branch log, exactly as git log -- <paths> does', async () => {
    const dated = datedCommits(clone.remote.bare, clone.remote.root);
    dated.commit({ 'src/checkout/discounts.ts': 'export const a = 1;\n' }, 'checkout: one', '2026-11-10T09:00:00Z');
    dated.commit({ 'src/payments/client.ts': 'export const b = 1;\n', 'src/checkout/cart.ts': 'export const c = 1;\n' }, 'payments and cart', '2026-11-20T09:00:00Z');
    // A side branch merged in: its commit touches one file, main's another.
    dated.git(['checkout', '--quiet', '-b', 'side']);
    dated.commit({ 'src/checkout/discounts.ts': 'export const a = 2;\n' }, 'side: discounts', '2026-11-25T09:00:00Z');
    dated.git(['checkout', '--quiet', 'main']);
    dated.commit({ 'src/payments/client.ts': 'export const b = 2;\n' }, 'main: payments', '2026-11-26T09:00:00Z');
    dated.git(['merge', '--quiet', '--no-ff', '-m', 'merge side', 'side'], '2026-11-27T09:00:00Z');
    dated.commit({ 'README.md': '# shop, later\n' }, 'docs', '2026-11-30T09:00:00Z');
    dated.push();

    const git = createGitRepository({ remoteUrl: clone.remote.bare, branch: 'main', workDir: clone.workDir });
    await git.sync();
    let logs = 0;
    const wrapped: CodeRepository = { ...git, commitLog: (...args) => (logs++, git.commitLog(...args)), recentChanges: () => Promise.reject(new Error('asked of git one window at a time')) };
    const repo = createRevisionCachedRepository(wrapped, { revision: () => readHeadRevision(clone.workDir) });
    const questions: [string[], number, number, string][] = [
      [['src/checkout/discounts.ts'], 14, 10, '2026-11-28T00:00:00Z'],
      [['src/payments/client.ts', 'src/checkout/cart.ts'], 14, 10, '2026-11-28T00:00:00Z'],
      [['src/payments/client.ts'], 14, 1, '2026-11-28T00:00:00Z'],
      [['src/checkout'], 14, 10, '2026-11-29T00:00:00Z'],
      [['src/checkout/discounts.ts'], 5, 10, '2026-11-25T09:00:00Z'],
      [[], 7, 10, '2026-12-01T00:00:00Z'],
      [['README.md'], 1, 10, '2026-11-29T00:00:00Z'],
    ];
    for (const [paths, days, limit, until] of questions) {
      expect([paths, days, until, await repo.recentChanges(paths, days, limit, until)]).toEqual([paths, days, until, await git.recentChanges(paths, days, limit, until)]);
    }
    expect(logs).toBe(1);
    // A first event so old that its window starts before the log read: the log is read again, further back.
    expect(await repo.recentChanges(['src/checkout/discounts.ts'], 14, 10, '2026-11-12T00:00:00Z')).toEqual(await git.recentChanges(['src/checkout/discounts.ts'], 14, 10, '2026-11-12T00:00:00Z'));
    expect(logs).toBe(2);
  });

  it('asks git window by window when the branch log holds more commits than the cache keeps, or cannot be read', async () => {
    const git = createGitRepository({ remoteUrl: clone.remote.bare, branch: 'main', workDir: clone.workDir });
    await git.sync();
    const until = new Date().toISOString();
    const direct = await git.recentChanges(['src/checkout/discounts.ts'], 3650, 10, until);
    expect(direct).not.toHaveLength(0);
    const busy = counted(git);
    const full = createRevisionCachedRepository(busy.wrapped, { revision: () => readHeadRevision(clone.workDir), maxLoggedCommits: 0 });
    expect(await full.recentChanges(['src/checkout/discounts.ts'], 3650, 10, until)).toEqual(direct);
    expect(busy.calls.recentChanges).toBe(1);
    const failing = counted({ ...git, commitLog: () => Promise.reject(new Error('git log timed out')) });
    const unread = createRevisionCachedRepository(failing.wrapped, { revision: () => readHeadRevision(clone.workDir) });
    expect(await unread.recentChanges(['src/checkout/discounts.ts'], 3650, 10, until)).toEqual(direct);
    expect(failing.calls.recentChanges).toBe(1);
  });

  it('keeps no failure and reads through when the revision is unknown', async () => {
    let fail = true;
    const flaky: CodeRepository = {
      sync: async () => undefined, check: async () => ({ name: 'code repository', adapter: 'test', ok: true, detail: '' }),
      listFiles: async () => { if (fail) throw new Error('git failed'); return ['a.ts']; },
      readFile: async () => 'x', recentChanges: async () => [],
      blame: async () => undefined, blameFunction: async () => undefined, commitFileChange: async () => undefined,
    };
    const repo = createRevisionCachedRepository(flaky, { revision: async () => 'abc' });
    await expect(repo.listFiles()).rejects.toThrow('git failed');
    fail = false;
    expect(await repo.listFiles()).toEqual(['a.ts']);
    const { calls, wrapped } = counted(flaky);
    const unknown = createRevisionCachedRepository(wrapped, { revision: async () => undefined });
    await unknown.readFile('a.ts');
    await unknown.readFile('a.ts');
    expect(calls.readFile).toBe(2);
  });

  it('blames and reads a commit once per revision, keeping misses but not failures', async () => {
    const hit = { sha: 'a'.repeat(40), author: 'Dana', date: '2026-11-29T10:00:00.000Z', subject: 'checkout: spread discounts', path: 'src/checkout/discounts.ts' };
    const calls = { blame: 0, blameFunction: 0, commitFileChange: 0 };
    let failNext = true;
    let revision = 'abc';
    const history: CodeRepository = {
      sync: async () => undefined, check: async () => ({ name: 'code repository', adapter: 'test', ok: true, detail: '' }),
      listFiles: async () => [], readFile: async () => undefined, recentChanges: async () => [],
      blame: async (_path, line) => (calls.blame++, line === 44 ? hit : undefined),
      blameFunction: async () => {
        calls.blameFunction++;
        if (failNext) {
          failNext = false;
          throw new Error('git failed');
        }
        return hit;
      },
      commitFileChange: async (sha, path) => (calls.commitFileChange++, { sha, path, pathBefore: path, before: 'a', after: 'b' }),
    };
    const repo = createRevisionCachedRepository(history, { revision: async () => revision });
    for (let incident = 0; incident < 3; incident++) {
      expect(await repo.blame('src/checkout/discounts.ts', 44)).toEqual(hit);
      expect(await repo.blame('src/checkout/discounts.ts', 45)).toBeUndefined();
      expect(await repo.commitFileChange(hit.sha, hit.path)).toMatchObject({ before: 'a', after: 'b' });
    }
    await expect(repo.blameFunction('src/checkout/discounts.ts', 'spreadDiscount')).rejects.toThrow('git failed');
    expect(await repo.blameFunction('src/checkout/discounts.ts', 'spreadDiscount')).toEqual(hit);
    expect(await repo.blameFunction('src/checkout/discounts.ts', 'spreadDiscount')).toEqual(hit);
    expect(calls).toEqual({ blame: 2, blameFunction: 2, commitFileChange: 1 });
    revision = 'def';
    await repo.blame('src/checkout/discounts.ts', 44);
    expect(calls.blame).toBe(3);
  });
});
