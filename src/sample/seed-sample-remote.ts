import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { simpleGit } from 'simple-git';
import { ErrorCode, MedicError } from '../domain/errors.js';
import { commitDate, contentAt, loadSampleHistory } from './sample-history.js';

export interface SeedSampleRemoteOptions {
  /** The sample tree (data/sample-service): every file's final content. */
  sourceDir: string;
  /** The history manifest (data/sample-service.history.json). */
  historyFile: string;
  /** Where the bare repository goes; left alone when it already is one. */
  remoteDir: string;
  branch?: string;
  /** What `daysAgo` counts back from; default the manifest's anchor, else the time of seeding. */
  now?: Date;
}

// Identity and signing settings per command, and a minimal environment (no system config, HOME
// in the work dir), so the host's git configuration never changes the commits or their hashes.
const GIT_CONFIG = ['user.name=Medic', 'user.email=medic@localhost', 'commit.gpgsign=false', 'core.autocrlf=false'];

function gitEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, LANG: 'C', GIT_CONFIG_NOSYSTEM: '1', ...extra };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

export async function isBareRepo(dir: string): Promise<boolean> {
  if (!(await exists(join(dir, 'HEAD'))) || !(await exists(join(dir, 'objects')))) return false;
  // --git-dir stops git from discovering an enclosing repository.
  const answer = await simpleGit({ config: GIT_CONFIG })
    .raw(['--git-dir', dir, 'rev-parse', '--is-bare-repository'])
    .catch(() => '');
  return answer.trim() === 'true';
}

async function listTree(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/** Builds the sample history in a temporary work tree and returns its path. */
async function buildHistory(options: SeedSampleRemoteOptions, branch: string): Promise<string> {
  const history = await loadSampleHistory(options.historyFile);
  const now = options.now ?? (history.anchor ? new Date(history.anchor) : new Date());
  const tree = await listTree(options.sourceDir);
  const committed = new Set(history.commits.flatMap((c) => c.files));
  const missing = tree.filter((f) => !committed.has(f));
  const unknown = [...committed].filter((f) => !tree.includes(f));
  if (missing.length > 0 || unknown.length > 0) {
    throw new MedicError(
      ErrorCode.ValidationFailed,
      `Sample history ${options.historyFile} does not match ${options.sourceDir}: ` +
        [missing.length ? `never committed: ${missing.join(', ')}` : '', unknown.length ? `not in the tree: ${unknown.join(', ')}` : ''].filter(Boolean).join('; '),
    );
  }
  const work = await mkdtemp(join(tmpdir(), 'medic-sample-'));
  try {
    const git = simpleGit({ baseDir: work, config: GIT_CONFIG }).env(gitEnv(work));
    await git.raw(['init', '--quiet', `--initial-branch=${branch}`]);
    for (const commit of history.commits) {
      const files = [...commit.files].sort();
      for (const file of files) {
        const content = contentAt(commit, file, await readFile(join(options.sourceDir, file), 'utf8'));
        await mkdir(dirname(join(work, file)), { recursive: true });
        await writeFile(join(work, file), content);
      }
      await git.raw(['add', '--', ...files]);
      const date = `@${Math.floor(commitDate(commit, now).getTime() / 1000)} +0000`;
      await git
        .env(gitEnv(work, { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }))
        .raw(['commit', '--quiet', '--no-verify', '--allow-empty', `--author=${commit.author}`, '-m', commit.message]);
    }
    return work;
  } catch (err) {
    await rm(work, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Seeds the embedded code host's remote: a bare repository holding the sample service with its
 * history. Idempotent: an existing bare repository is kept as it is.
 */
export async function seedSampleRemote(options: SeedSampleRemoteOptions): Promise<{ remoteDir: string; created: boolean }> {
  const remoteDir = resolve(options.remoteDir);
  if (await isBareRepo(remoteDir)) return { remoteDir, created: false };
  if ((await exists(remoteDir)) && (await readdir(remoteDir)).length > 0) {
    throw new MedicError(ErrorCode.Conflict, `${remoteDir} exists and is not a bare git repository; empty it or point the sample remote elsewhere`);
  }
  const branch = options.branch ?? 'main';
  const work = await buildHistory(options, branch);
  // Cloned beside the target and renamed into place, so a crash never leaves a half-made remote.
  const partial = `${remoteDir}.partial-${randomBytes(4).toString('hex')}`;
  try {
    await mkdir(dirname(remoteDir), { recursive: true });
    await simpleGit({ config: GIT_CONFIG }).env(gitEnv(work)).raw(['clone', '--quiet', '--bare', '--no-local', work, partial]);
    await simpleGit({ baseDir: partial, config: GIT_CONFIG }).env(gitEnv(work)).raw(['remote', 'remove', 'origin']);
    try {
      await rename(partial, remoteDir);
    } catch (err) {
      if (await isBareRepo(remoteDir)) return { remoteDir, created: false }; // another process seeded it first
      throw err;
    }
    return { remoteDir, created: true };
  } finally {
    await rm(partial, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  }
}
