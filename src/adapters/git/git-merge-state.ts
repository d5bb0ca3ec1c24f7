/**
 * Whether a fix branch reached the default branch of a plain git remote (no code host, so no PR
 * to ask): its pushed commit is an ancestor of the remote's default branch. Both branches are
 * fetched into Medic's own clone (never the operator's checkout), with the credentials and trust
 * rules every other network command of the clone has.
 *
 * `commit` is the default branch's commit that brought the fix in: the merge commit on its
 * first-parent line, or the fix commit itself after a fast-forward. `mergedAt` is that merge
 * commit's committer date; after a fast-forward git records no merge time, so it is now.
 */
import { resolve } from 'node:path';
import type { FixRef, MergeState } from '../../ports/code.js';
import { assertFixBranch } from './fix-guards.js';
import { assertCredentialFreeRemote } from './git-credentials.js';
import type { GitRepositoryOptions } from './git-repository.js';
import { createGitRunner, type GitRunner } from './git-runner.js';
import { ensureClone, fetchBranches, remoteHeads, withCloneLock } from './medic-clone.js';

/** What the merge check needs is what the repository reads need: the same remote, branch and clone. */
export type GitMergeStateOptions = GitRepositoryOptions;

/** The sha a ref names, or undefined (git prints nothing for a missing ref with --quiet). */
async function commitOf(git: GitRunner, ref: string): Promise<string | undefined> {
  const out = (await git.run(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).catch(() => '')).trim();
  return /^[0-9a-f]{40,64}$/.test(out) ? out : undefined;
}

const lines = (out: string) => out.split('\n').map((l) => l.trim()).filter(Boolean);

export function createGitMergeState(options: GitMergeStateOptions): (fix: FixRef) => Promise<MergeState> {
  assertCredentialFreeRemote(options.remoteUrl);
  const workDir = resolve(options.workDir);
  const git = createGitRunner({ workDir, remoteUrl: options.remoteUrl, credentials: options.credentials, timeoutMs: options.timeoutMs });
  const now = options.now ?? (() => new Date());
  const defaultRef = `refs/remotes/origin/${options.branch}`;

  return async (fix) => {
    assertFixBranch(fix.branch, options.branch);
    return withCloneLock(workDir, async (): Promise<MergeState> => {
      await ensureClone(git, workDir, options.remoteUrl);
      const heads = await remoteHeads(git, [options.branch, fix.branch]);
      await fetchBranches(git, heads.has(fix.branch) ? [options.branch, fix.branch] : [options.branch]);
      // The branch as pushed; once deleted from the remote (merged and cleaned up), as last fetched
      // or as the publisher committed it in this clone.
      const fixCommit = (await commitOf(git, `refs/remotes/origin/${fix.branch}`)) ?? (await commitOf(git, `refs/heads/${fix.branch}`));
      const tip = await commitOf(git, defaultRef);
      if (!fixCommit || !tip) return { merged: false };
      // `merge-base --is-ancestor` answers by exit code alone, which the runner does not report; the
      // merge base being the fix commit itself says the same.
      const base = (await git.run(['merge-base', fixCommit, tip]).catch(() => '')).trim();
      if (base !== fixCommit) return { merged: false };
      if (tip === fixCommit) return { merged: true, mergedAt: now().toISOString(), commit: fixCommit };

      // The oldest commit of the default branch's first-parent line that descends from the fix.
      const descendants = new Set(lines(await git.run(['rev-list', '--ancestry-path', `${fixCommit}..${tip}`])));
      const line = lines(await git.run(['rev-list', '--first-parent', `${fixCommit}..${tip}`]));
      const bringer = [...line].reverse().find((c) => descendants.has(c));
      const parents = bringer ? lines((await git.run(['rev-list', '--parents', '-n', '1', bringer])).replace(/\s+/g, '\n')).slice(1) : [];
      if (!bringer || parents[0] === fixCommit) return { merged: true, mergedAt: now().toISOString(), commit: fixCommit };
      const committed = (await git.run(['show', '-s', '--format=%cI', bringer])).trim();
      const at = Date.parse(committed);
      return { merged: true, mergedAt: Number.isFinite(at) ? new Date(at).toISOString() : now().toISOString(), commit: bringer };
    });
  };
}
