/**
 * Medic's private clone under its data directory. Sync resets it hard to origin/<branch>, so it
 * must never be the operator's checkout: Medic marks the clones it creates and refuses any other
 * repository it is pointed at.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { GitRunner } from './git-runner.js';

const MARKER = 'medic-clone';

export async function ensureClone(git: GitRunner, workDir: string, remoteUrl: string): Promise<void> {
  const gitDir = join(workDir, '.git');
  if (!existsSync(gitDir)) {
    await mkdir(workDir, { recursive: true });
    await git.run(['init', '--quiet']);
    await git.run(['remote', 'add', 'origin', remoteUrl]);
    await writeFile(join(gitDir, MARKER), 'This clone belongs to Medic; it is reset to the remote on every sync.\n');
    return;
  }
  if (!existsSync(join(gitDir, MARKER))) {
    throw new MedicError(ErrorCode.ConfigInvalid, `${workDir} is a git repository Medic did not create; refusing to reset it. Point Medic's data directory (MEDIC_DATA_DIR) somewhere else.`);
  }
  const current = (await git.run(['remote', 'get-url', 'origin']).catch(() => '')).trim();
  if (current !== remoteUrl) {
    if (current) await git.run(['remote', 'set-url', 'origin', remoteUrl]);
    else await git.run(['remote', 'add', 'origin', remoteUrl]);
  }
}

/** Fetches the given branches into refs/remotes/origin/*; never tags, never other branches. */
export async function fetchBranches(git: GitRunner, branches: string[]): Promise<void> {
  try {
    await git.remote(['fetch', '--quiet', '--no-tags', 'origin', ...branches.map((b) => `+refs/heads/${b}:refs/remotes/origin/${b}`)]);
  } catch (err) {
    // git says "couldn't find remote ref"; the setting to change is Medic's.
    if (err instanceof MedicError && /couldn't find remote ref|no such ref/i.test(err.message)) {
      throw new MedicError(err.code, `The remote has no branch ${branches.join(', ')}: set MEDIC_REPO_BRANCH (or the catalog repository's branch) to one it has. ${err.message}`);
    }
    throw err;
  }
}

/** Heads of the named branches on the remote (absent branches are missing from the map). */
export async function remoteHeads(git: GitRunner, branches: string[]): Promise<Map<string, string>> {
  const out = await git.remote(['ls-remote', '--heads', 'origin', ...branches.map((b) => `refs/heads/${b}`)]);
  const heads = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [sha, ref] = line.trim().split(/\s+/);
    if (sha && ref?.startsWith('refs/heads/')) heads.set(ref.slice('refs/heads/'.length), sha);
  }
  return heads;
}

const locks = new Map<string, Promise<unknown>>();

/** Serializes work on one clone inside this process (git's own lock files guard across processes). */
export function withCloneLock<T>(workDir: string, fn: () => Promise<T>): Promise<T> {
  const previous = locks.get(workDir) ?? Promise.resolve();
  const next = previous.then(fn, fn);
  const settled = next.catch(() => undefined);
  locks.set(workDir, settled);
  void settled.then(() => {
    if (locks.get(workDir) === settled) locks.delete(workDir);
  });
  return next;
}
