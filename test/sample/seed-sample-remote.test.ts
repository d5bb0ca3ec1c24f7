import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { simpleGit } from 'simple-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBareRepo, seedSampleRemote } from '../../src/sample/seed-sample-remote.js';

const sourceDir = join(import.meta.dirname, '../../data/sample-service');
const historyFile = join(import.meta.dirname, '../../data/sample-service.history.json');
const now = new Date('2026-11-30T09:00:00Z');
const manifest = JSON.parse(await readFile(historyFile, 'utf8')) as {
  commits: { message: string; files: string[]; edits?: Record<string, { find: string; replace: string }[]> }[];
};
const gitConfig = ['user.name=Medic', 'user.email=medic@localhost'];

async function listTree(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && !relative(root, e.parentPath).split(sep).includes('.git'))
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

describe('seedSampleRemote', () => {
  let dir: string;
  let remoteDir: string;
  let cloneDir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'medic-seed-test-'));
    remoteDir = join(dir, 'remotes', 'shop.git');
    cloneDir = join(dir, 'clone');
    const first = await seedSampleRemote({ sourceDir, historyFile, remoteDir, now });
    expect(first).toEqual({ remoteDir, created: true });
    await simpleGit({ config: gitConfig }).clone(remoteDir, cloneDir);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates a bare repository whose default branch is main', async () => {
    expect(await isBareRepo(remoteDir)).toBe(true);
    const head = await simpleGit({ baseDir: cloneDir }).revparse(['--abbrev-ref', 'HEAD']);
    expect(head.trim()).toBe('main');
  });

  it('holds one commit per manifest entry, in order, with the manifest authors and relative dates', async () => {
    const log = await simpleGit({ baseDir: cloneDir }).log();
    expect(log.total).toBe(manifest.commits.length);
    const subjects = [...log.all].reverse().map((c) => c.message);
    expect(subjects).toEqual(manifest.commits.map((c) => c.message.split('\n')[0]));
    const newest = log.all[0]!;
    expect(newest.author_email).toBe('chen.li@shop.example');
    expect(new Date(newest.date).getTime()).toBeLessThan(now.getTime());
    expect(new Date(newest.date).getTime()).toBeGreaterThan(now.getTime() - 3 * 86_400_000);
  });

  it('shows the bug-introducing commit last in the log of each faulty file', async () => {
    const git = simpleGit({ baseDir: cloneDir });
    const discounts = await git.log({ file: 'src/checkout/discounts.ts' });
    expect(discounts.all.map((c) => c.message)).toEqual(['checkout: stop giving gift cards a share of order discounts', 'checkout: discount codes, spread across the discounted items']);
    const pagination = await git.log({ file: 'src/orders/pagination.ts' });
    expect(pagination.total).toBe(2);
    const patch = await git.raw(['show', '--format=', 'HEAD~1', '--', 'src/orders/pagination.ts']);
    expect(patch).toContain('-  const index = Math.min(request.page - 1, pageCount - 1);');
    expect(patch).toContain('+  const index = request.page;');
  });

  it('checks out every file of the sample tree with its final content', async () => {
    const expected = await listTree(sourceDir);
    expect(await listTree(cloneDir)).toEqual(expected);
    for (const file of expected) {
      expect(await readFile(join(cloneDir, file), 'utf8'), file).toBe(await readFile(join(sourceDir, file), 'utf8'));
    }
  });

  it('leaves an existing remote alone on a second call', async () => {
    const before = await simpleGit().raw(['--git-dir', remoteDir, 'rev-parse', 'main']);
    const second = await seedSampleRemote({ sourceDir, historyFile, remoteDir, now: new Date() });
    expect(second).toEqual({ remoteDir, created: false });
    expect(await simpleGit().raw(['--git-dir', remoteDir, 'rev-parse', 'main'])).toBe(before);
  });

  it('builds the same commits from the same manifest and clock', async () => {
    const again = join(dir, 'again.git');
    await seedSampleRemote({ sourceDir, historyFile, remoteDir: again, now });
    const a = await simpleGit().raw(['--git-dir', remoteDir, 'rev-parse', 'main']);
    const b = await simpleGit().raw(['--git-dir', again, 'rev-parse', 'main']);
    expect(b).toBe(a);
  });

  it('refuses a non-empty directory that is not a bare repository', async () => {
    const occupied = join(dir, 'occupied');
    await mkdir(occupied);
    await writeFile(join(occupied, 'notes.txt'), 'keep me');
    await expect(seedSampleRemote({ sourceDir, historyFile, remoteDir: occupied, now })).rejects.toMatchObject({ code: 'ERR_CONFLICT' });
    expect(await readdir(occupied)).toEqual(['notes.txt']);
  });

  it('refuses a manifest that leaves a file of the tree uncommitted', async () => {
    const partialHistory = join(dir, 'partial-history.json');
    await writeFile(partialHistory, JSON.stringify({ commits: manifest.commits.slice(0, 2) }));
    await expect(seedSampleRemote({ sourceDir, historyFile: partialHistory, remoteDir: join(dir, 'never.git'), now })).rejects.toThrow(/never committed: .*src\/checkout\/cart\.ts/);
  });

  it('refuses an edit that no longer matches its file', async () => {
    const stale = structuredClone(manifest);
    const withEdits = stale.commits.find((c) => c.edits)!;
    const [file, edits] = Object.entries(withEdits.edits!)[0]!;
    edits[0]!.find = 'a line that is not in the file';
    const staleHistory = join(dir, 'stale-history.json');
    await writeFile(staleHistory, JSON.stringify(stale));
    const target = join(dir, 'stale.git');
    await expect(seedSampleRemote({ sourceDir, historyFile: staleHistory, remoteDir: target, now })).rejects.toThrow(`an edit of ${file} must match exactly once`);
    expect(await isBareRepo(target)).toBe(false);
  });
});
