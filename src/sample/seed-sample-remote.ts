import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
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

function gitEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, LANG: 'C', GIT_CONFIG_NOSYSTEM: '1' };
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

/** A commit message as `git commit -m` stores it (cleanup mode "whitespace"), so hashes match. */
function cleanMessage(message: string): string {
  const lines = message.split('\n').map((l) => l.trimEnd());
  const kept = lines.filter((l, i) => l !== '' || (i > 0 && lines[i - 1] !== ''));
  while (kept[0] === '') kept.shift();
  while (kept.at(-1) === '') kept.pop();
  return `${kept.join('\n')}\n`;
}

/** A `data` command of git fast-import: the exact byte count, then the bytes. */
function data(text: string): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  return [Buffer.from(`data ${bytes.length}\n`), bytes, Buffer.from('\n')];
}

/**
 * The sample history as one git fast-import stream: each commit writes its files' content at
 * that commit, with the manifest's author and date (committer Medic, as `git commit` would record
 * with the identity above). One process builds the whole history, instead of two per commit.
 */
async function historyStream(options: SeedSampleRemoteOptions, branch: string): Promise<Buffer> {
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
  const parts: Buffer[] = [];
  for (const commit of history.commits) {
    const when = `${Math.floor(commitDate(commit, now).getTime() / 1000)} +0000`;
    parts.push(Buffer.from(`commit refs/heads/${branch}\nauthor ${commit.author} ${when}\ncommitter Medic <medic@localhost> ${when}\n`), ...data(cleanMessage(commit.message)));
    for (const file of [...commit.files].sort()) {
      const content = contentAt(commit, file, await readFile(join(options.sourceDir, file), 'utf8'));
      // The manifest's paths are normalized relative paths (sample-history.ts); quoted as git does.
      parts.push(Buffer.from(`M 100644 inline ${JSON.stringify(file)}\n`), ...data(content));
    }
  }
  return Buffer.concat(parts);
}

function fastImport(bareDir: string, stream: Buffer, home: string): Promise<void> {
  return new Promise((resolveDone, reject) => {
    const child = spawn('git', ['-c', 'core.autocrlf=false', '--git-dir', bareDir, 'fast-import', '--quiet', '--done'], { env: gitEnv(home), stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolveDone() : reject(new MedicError(ErrorCode.Internal, `git fast-import failed building the sample history: ${stderr.trim()}`))));
    child.stdin.end(Buffer.concat([stream, Buffer.from('done\n')]));
  });
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
  const stream = await historyStream(options, branch);
  // Built beside the target and renamed into place, so a crash never leaves a half-made remote.
  const partial = `${remoteDir}.partial-${randomBytes(4).toString('hex')}`;
  const home = await mkdtemp(join(tmpdir(), 'medic-sample-'));
  try {
    await mkdir(dirname(remoteDir), { recursive: true });
    await simpleGit({ config: GIT_CONFIG }).env(gitEnv(home)).raw(['init', '--quiet', '--bare', `--initial-branch=${branch}`, partial]);
    await fastImport(partial, stream, home);
    try {
      await rename(partial, remoteDir);
    } catch (err) {
      if (await isBareRepo(remoteDir)) return { remoteDir, created: false }; // another process seeded it first
      throw err;
    }
    return { remoteDir, created: true };
  } finally {
    await rm(partial, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  }
}
