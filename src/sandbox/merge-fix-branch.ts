/**
 * The sandbox's stand-in for a reviewer pressing "Merge": a pushed `fix/` branch merged into the
 * default branch of a local bare remote, with a merge commit (`git merge --no-ff`), in a throwaway
 * clone under the system's temp directory, pushed back without force. Only local paths: a network
 * remote is someone's real repository, which the sandbox never writes to.
 */
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createGitRunner, type GitRunner } from '../adapters/git/git-runner.js';
import { ErrorCode, MedicError } from '../domain/errors.js';
import { remoteLocation } from '../domain/git/remote-trust.js';

/** A catalog repository's remote and the default branch fixes merge into. */
export interface LocalRemote {
  path: string;
  branch: string;
}

export interface MergeResult {
  remote: string;
  branch: string;
  into: string;
  /** The default branch's head after the merge (the merge commit, or the head that already had it). */
  commit: string;
  alreadyMerged: boolean;
}

const FIX_BRANCH = /^fix\/[A-Za-z0-9][A-Za-z0-9._-]{0,120}$/;

/** Refuses a branch that is not a plain `fix/` name (no `..`, no `.lock`, nothing option-like). */
export function assertMergeableBranch(branch: string): void {
  if (!FIX_BRANCH.test(branch) || branch.includes('..') || branch.endsWith('.lock')) {
    throw new MedicError(ErrorCode.FixRefused, `Only a fix branch (fix/<incident>-<time>) can be merged in the sandbox, not ${JSON.stringify(branch.slice(0, 80))}.`);
  }
}

/** A local path to a repository (file:// included); undefined with the reason otherwise. */
export function localRemoteProblem(path: string): string | undefined {
  const where = remoteLocation(path);
  if (where) return `${where.host || path} is a network remote; the sandbox merges only into a local bare remote`;
  const dir = path.startsWith('file://') ? new URL(path).pathname : resolve(path);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return `the local remote ${dir} does not exist`;
  return undefined;
}

async function headOf(git: GitRunner, remote: string, ref: string, cwd: string): Promise<string | undefined> {
  const out = await git.run(['ls-remote', '--', remote, ref], cwd);
  return out.split('\n').map((l) => l.split(/\s+/)).find(([, name]) => name === ref)?.[0];
}

/**
 * Merges `branch` into the default branch of whichever of `remotes` has it (exactly one must).
 * Idempotent: a branch already in the default branch is reported as such and nothing is pushed.
 */
export async function mergeFixBranch(remotes: readonly LocalRemote[], branch: string, options: { author?: { name: string; email: string }; timeoutMs?: number } = {}): Promise<MergeResult> {
  assertMergeableBranch(branch);
  const local = remotes.filter((r) => localRemoteProblem(r.path) === undefined);
  if (local.length === 0) {
    const why = remotes.map((r) => localRemoteProblem(r.path)).find(Boolean);
    throw new MedicError(ErrorCode.FixRefused, `The sandbox has no local git remote to merge into${why ? `: ${why}` : ''}.`);
  }
  const scratch = await mkdtemp(join(tmpdir(), 'medic-sandbox-merge-'));
  try {
    const probe = createGitRunner({ workDir: scratch, remoteUrl: local[0]!.path, timeoutMs: options.timeoutMs });
    const holders: { remote: LocalRemote; tip: string }[] = [];
    for (const remote of local) {
      const tip = await headOf(probe, remote.path, `refs/heads/${branch}`, scratch);
      if (tip) holders.push({ remote, tip });
    }
    if (holders.length === 0) throw new MedicError(ErrorCode.NotFound, `No branch ${branch} on the local remote${local.length > 1 ? 's' : ''} (${local.map((r) => r.path).join(', ')}): was it pushed?`);
    if (holders.length > 1) throw new MedicError(ErrorCode.Conflict, `${branch} is on several local remotes (${holders.map((h) => h.remote.path).join(', ')}); nothing was merged.`);
    const { remote, tip } = holders[0]!;

    const work = join(scratch, 'work');
    const git = createGitRunner({ workDir: work, remoteUrl: remote.path, author: options.author ?? { name: 'Sandbox newcomer', email: 'sandbox@localhost' }, timeoutMs: options.timeoutMs });
    await git.run(['clone', '--quiet', '--no-tags', '--branch', remote.branch, '--', remote.path, work], scratch);
    await git.remote(['fetch', '--quiet', '--no-tags', 'origin', `+refs/heads/${branch}:refs/remotes/origin/${branch}`]);
    const head = (await git.run(['rev-parse', 'HEAD'])).trim();
    const base = (await git.run(['merge-base', tip, head]).catch(() => '')).trim();
    if (base === tip) return { remote: remote.path, branch, into: remote.branch, commit: head, alreadyMerged: true };

    await git.run(['merge', '--no-ff', '--no-edit', '-m', `Merge ${branch} into ${remote.branch}\n\nMerged from Medic's local Slack sandbox.`, `refs/remotes/origin/${branch}`]).catch(() => '');
    // A conflict leaves no merge commit (git reports it on stdout, with a non-zero exit).
    const merged = (await git.run(['rev-list', '--parents', '-n', '1', 'HEAD'])).trim().split(/\s+/);
    if (merged.length !== 3 || merged[1] !== head || merged[2] !== tip) {
      await git.run(['merge', '--abort']).catch(() => '');
      throw new MedicError(ErrorCode.Conflict, `${branch} does not merge cleanly into ${remote.branch} (conflicts); nothing was pushed. Merge it by hand in a clone of ${remote.path}.`);
    }
    try {
      await git.remote(['push', '--quiet', '--no-verify', 'origin', `HEAD:refs/heads/${remote.branch}`]);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new MedicError(ErrorCode.Conflict, `Could not push the merge to ${remote.branch} of ${remote.path} (did it move meanwhile? try again): ${detail}`);
    }
    return { remote: remote.path, branch, into: remote.branch, commit: merged[0]!, alreadyMerged: false };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
