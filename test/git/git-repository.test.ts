import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGitRepository } from '../../src/adapters/git/git-repository.js';
import { ErrorCode } from '../../src/domain/errors.js';
import { SAMPLE_FILES, useRemoteClone, gitIn } from './build-remote.js';

describe('createGitRepository (local bare remote)', () => {
  const clone = useRemoteClone();

  it('syncs a private clone and lists and reads the default branch', async () => {
    const repo = createGitRepository({ remoteUrl: clone.remote.bare, branch: 'main', workDir: clone.workDir });
    await repo.sync();
    const files = await repo.listFiles();
    expect(files).toEqual(expect.arrayContaining(Object.keys(SAMPLE_FILES)));
    expect(await repo.readFile('src/checkout/discounts.ts')).toBe(SAMPLE_FILES['src/checkout/discounts.ts']);
    expect(await repo.readFile('src/missing.ts')).toBeUndefined();
    expect((await repo.check()).ok).toBe(true);
  });

  it('sync resets the clone to the clone.remote, discarding anything local', async () => {
    const repo = createGitRepository({ remoteUrl: clone.remote.bare, branch: 'main', workDir: clone.workDir });
    await repo.sync();
    mkdirSync(join(clone.workDir, 'tmp'), { recursive: true });
    gitIn(clone.workDir, 'rm', '--quiet', 'README.md');
    clone.remote.commitToMain({ 'src/new-file.ts': 'export const x = 1;\n' }, 'add a file');
    await repo.sync();
    expect(existsSync(join(clone.workDir, 'tmp'))).toBe(false);
    expect(await repo.readFile('README.md')).toBe('# shop\n');
    expect(await repo.listFiles()).toContain('src/new-file.ts');
  });

  it('refuses paths that leave the repository, symlinks out of it and binary files', async () => {
    const repo = createGitRepository({ remoteUrl: clone.remote.bare, branch: 'main', workDir: clone.workDir });
    await repo.sync();
    await expect(repo.readFile('../remote.git/config')).rejects.toMatchObject({ code: ErrorCode.FixRefused, message: expect.stringContaining('".."') });
    await expect(repo.readFile('/etc/passwd')).rejects.toMatchObject({ code: ErrorCode.FixRefused, message: expect.stringContaining('absolute') });
    await expect(repo.readFile('src/outside-link.ts')).rejects.toMatchObject({ message: expect.stringContaining('symlink that points outside') });
    await expect(repo.readFile('src/logo.ts')).rejects.toMatchObject({ message: expect.stringContaining('binary') });
    await expect(repo.readFile('.git/config')).rejects.toMatchObject({ code: ErrorCode.FixRefused });
  });

  it('reports recent changes of the given paths with their files', async () => {
    const repo = createGitRepository({ remoteUrl: clone.remote.bare, branch: 'main', workDir: clone.workDir });
    const sha = clone.remote.commitToMain({ 'src/payments/client.ts': 'export const changed = true;\n' }, 'payments: change the client');
    await repo.sync();
    const changes = await repo.recentChanges(['src/payments/client.ts'], 14, 10);
    expect(changes[0]).toMatchObject({ sha, subject: 'payments: change the client', author: 'Test', files: ['src/payments/client.ts'] });
    expect(changes).toHaveLength(2);
    const farFuture = createGitRepository({ remoteUrl: clone.remote.bare, branch: 'main', workDir: clone.workDir, now: () => new Date(Date.now() + 400 * 86_400_000) });
    expect(await farFuture.recentChanges(['src/payments/client.ts'], 14, 10)).toEqual([]);
  });

  it('never takes over a repository it did not create (the operator checkout)', async () => {
    const operatorCheckout = join(clone.remote.root, 'operator');
    gitIn(clone.remote.root, 'clone', '--quiet', clone.remote.bare, operatorCheckout);
    const repo = createGitRepository({ remoteUrl: clone.remote.bare, branch: 'main', workDir: operatorCheckout });
    await expect(repo.sync()).rejects.toMatchObject({ code: ErrorCode.ConfigInvalid });
    expect(readFileSync(join(operatorCheckout, 'README.md'), 'utf8')).toBe('# shop\n');
  });

  it('refuses a clone.remote URL that carries credentials', () => {
    expect(() => createGitRepository({ remoteUrl: 'https://x-access-token:ghp_abcdefghijklmnopqrstuvwxyz0123@example.com/o/r.git', branch: 'main', workDir: clone.workDir })).toThrow(/must not contain credentials/);
  });
});
