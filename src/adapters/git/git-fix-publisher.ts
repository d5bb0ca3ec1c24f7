/**
 * FixPublisher over Medic's clone: an isolated worktree on a new fix/<incident>-<ts> branch from
 * the up-to-date default branch, exactly one file written and committed, one push of that branch.
 *
 * Idempotent by branch: a branch that already holds exactly the approved change (on the remote,
 * or locally after a crash before the push) is reused — a retried job never makes a second branch
 * or a second commit. "Exactly" is decided by comparing trees (`findApprovedTip`), never by the
 * `Medic-Proposal:` trailer, which is informational: anyone can type it. There is no force push, no push
 * to any other ref and no branch deletion anywhere in this adapter.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { asMedicError, ErrorCode, MedicError } from '../../domain/errors.js';
import { inertGitText } from '../../domain/untrusted/inert-git-text.js';
import { redactSecrets } from '../../domain/untrusted/redact.js';
import type { FixPublisher, PublishInput, PublishResult } from '../../ports/code.js';
import { readRepoFile } from '../../code-search/safe-read.js';
import { assertCredentialFreeRemote, type GitCredentials } from './git-credentials.js';
import { createGitRunner } from './git-runner.js';
import { assertApprovedContent, assertBaseUnchanged, assertFixBranch, assertIncidentId, type BaseEntry } from './fix-guards.js';
import { clipSubject, isConventionalSubject } from '../../domain/commit-subject.js';
import { ensureClone, fetchBranches, remoteHeads, withCloneLock } from './medic-clone.js';
import { findApprovedTip } from './verify-fix-branch.js';

export interface GitFixPublisherOptions {
  remoteUrl: string;
  /** The default branch fixes start from (never pushed to). */
  branch: string;
  /** Medic's clone (the same directory the CodeRepository uses is fine). */
  workDir: string;
  credentials?: GitCredentials;
  author?: { name: string; email: string };
  /** Where temporary worktrees go (default: the OS temp directory). */
  worktreeRoot?: string;
  logger?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** Test seam: runs after the commit, before the push (a throw here is a crash at that point). */
  beforePush?: (state: { branch: string; commit: string }) => Promise<void> | void;
}

const TRAILER = 'Medic-Proposal';

export function createGitFixPublisher(options: GitFixPublisherOptions): FixPublisher {
  assertCredentialFreeRemote(options.remoteUrl);
  const workDir = resolve(options.workDir);
  const git = createGitRunner({ workDir, remoteUrl: options.remoteUrl, credentials: options.credentials, author: options.author });
  const originDefault = `refs/remotes/origin/${options.branch}`;

  async function localHead(branch: string): Promise<string | undefined> {
    const out = await git.run(['for-each-ref', '--format=%(objectname)', `refs/heads/${branch}`]);
    return out.trim() || undefined;
  }

  async function readBase(file: string): Promise<BaseEntry | undefined> {
    const entry = (await git.run(['ls-tree', '-z', originDefault, '--', `:(literal)${file}`])).split('\0')[0];
    const m = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(entry ?? '');
    if (!m || m[4] !== file) return undefined;
    const content = m[2] === 'blob' ? await git.run(['cat-file', 'blob', m[3]!]) : '';
    return { mode: m[1]!, content };
  }

  /** Removes worktrees a crashed run left behind, so the fix branch is free to check out. */
  async function cleanWorktrees(branch: string): Promise<void> {
    await git.run(['worktree', 'prune']);
    const list = await git.run(['worktree', 'list', '--porcelain']);
    for (const block of list.split('\n\n')) {
      const path = /^worktree (.+)$/m.exec(block)?.[1];
      if (path && block.split('\n').includes(`branch refs/heads/${branch}`)) {
        await git.run(['worktree', 'remove', '--force', path]).catch(() => undefined);
      }
    }
    await git.run(['worktree', 'prune']);
  }

  async function commitInWorktree(input: PublishInput, branchExists: boolean): Promise<string> {
    const { proposal, branch, incidentId } = input;
    const dir = await mkdtemp(join(options.worktreeRoot ?? tmpdir(), 'medic-fix-'));
    try {
      // -B only when a leftover local branch (created, never committed) exists: it is local to
      // Medic's private clone and holds no proposal commit, so resetting it loses nothing.
      await git.run(['worktree', 'add', '--quiet', branchExists ? '-B' : '-b', branch, dir, originDefault]);
      const current = await readRepoFile(dir, proposal.file);
      if (current === undefined) throw new MedicError(ErrorCode.FixRefused, `Refused fix for ${proposal.file}: it is not a regular file in the repository.`);
      await writeFile(join(dir, proposal.file), proposal.after, 'utf8');
      await git.run(['add', '--', `:(literal)${proposal.file}`], dir);
      await git.run(['commit', '--quiet', '--no-verify', '--only', '-m', commitMessage(input), '--', `:(literal)${proposal.file}`], dir);
      const changed = (await git.run(['diff-tree', '--no-commit-id', '--name-only', '-r', '-z', 'HEAD'], dir)).split('\0').filter(Boolean);
      if (changed.length !== 1 || changed[0] !== proposal.file) {
        throw new MedicError(ErrorCode.Internal, `The fix commit touched ${changed.length} files instead of exactly ${proposal.file}; nothing was pushed.`);
      }
      options.logger?.info({ incidentId, branch, file: proposal.file }, 'fix committed');
      return (await git.run(['rev-parse', 'HEAD'], dir)).trim();
    } finally {
      await git.run(['worktree', 'remove', '--force', dir]).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
      await git.run(['worktree', 'prune']).catch(() => undefined);
    }
  }

  /** Stops the work between two git steps once the caller's hold on it is gone. */
  function stillHeld(input: PublishInput): void {
    const signal = input.guard?.signal;
    if (!signal?.aborted) return;
    const why = signal.reason instanceof Error ? signal.reason.message : String(signal.reason);
    throw new MedicError(ErrorCode.Conflict, `Fix work for ${input.incidentId} stopped before the push: ${why}. Nothing was pushed; the worker that holds the fix now finishes it.`, { transient: true });
  }

  async function push(input: PublishInput, commit: string): Promise<PublishResult> {
    const { branch } = input;
    await options.beforePush?.({ branch, commit });
    stillHeld(input);
    // The fence is checked at the last moment before the one effect that cannot be taken back.
    await input.guard?.admit?.();
    const ref = `refs/heads/${branch}`;
    // Never "+ref" (force) and never any ref but the fix branch itself.
    if (!ref.startsWith('refs/heads/fix/')) throw new MedicError(ErrorCode.FixRefused, 'Refused push: only fix/ branches are pushed.');
    try {
      await git.remote(['push', '--quiet', '--no-verify', 'origin', `${ref}:${ref}`]);
      options.logger?.info({ branch, commit }, 'fix branch pushed');
      return { branch, commit, pushStatus: 'pushed' };
    } catch (err) {
      const reason = asMedicError(err).message;
      options.logger?.warn({ branch, commit, reason }, 'fix branch push failed; the branch stays local');
      return { branch, commit, pushStatus: 'failed', pushError: reason };
    }
  }

  async function publish(input: PublishInput): Promise<PublishResult> {
    const { proposal, branch, incidentId } = input;
    assertIncidentId(incidentId);
    assertFixBranch(branch, options.branch);
    assertApprovedContent(proposal);
    await ensureClone(git, workDir, options.remoteUrl);
    stillHeld(input);
    await cleanWorktrees(branch);
    const heads = await remoteHeads(git, [options.branch, branch]);
    if (!heads.has(options.branch)) throw new MedicError(ErrorCode.UpstreamRejected, `The remote has no branch ${options.branch}: check MEDIC_REPO_BRANCH.`);
    await fetchBranches(git, heads.has(branch) ? [options.branch, branch] : [options.branch]);

    const local = await localHead(branch);
    if (heads.has(branch)) {
      // A pushed branch is Medic's only when it sits on the base Medic prepares now, or is the very
      // commit Medic made in its private clone (on the base of that moment).
      const remoteTip = (await git.run(['rev-parse', `refs/remotes/origin/${branch}`])).trim();
      const bases = [(await git.run(['rev-parse', originDefault])).trim()];
      if (local === remoteTip) bases.push((await git.run(['rev-parse', `${local}^`]).catch(() => '')).trim());
      const pushed = await findApprovedTip(git, `refs/remotes/origin/${branch}`, { oneOf: bases.filter(Boolean) }, proposal);
      if (pushed) return { branch, commit: pushed, pushStatus: 'pushed' };
      options.logger?.warn({ incidentId, branch }, 'an existing fix branch is not exactly the approved change; refusing to report it');
      throw new MedicError(ErrorCode.Conflict, `Branch ${branch} already exists on the remote and is not exactly the approved change; Medic will not overwrite it or open a PR for it. Re-run \`/medic fix ${incidentId}\`.`);
    }
    const committed = local ? await findApprovedTip(git, `refs/heads/${branch}`, { ancestorOf: originDefault }, proposal) : undefined;
    if (committed) return push(input, committed);

    assertBaseUnchanged(proposal, await readBase(proposal.file), incidentId, options.branch);
    stillHeld(input);
    return push(input, await commitInWorktree(input, local !== undefined));
  }

  return {
    publish: (input) => withCloneLock(workDir, () => publish(input)),
    async check() {
      const adapter = `git push to ${options.remoteUrl}`;
      try {
        const heads = await withCloneLock(workDir, async () => {
          await ensureClone(git, workDir, options.remoteUrl);
          return remoteHeads(git, [options.branch]);
        });
        return { name: 'fix publisher', adapter, ok: heads.has(options.branch), detail: heads.has(options.branch) ? `fix branches start from ${options.branch}` : `the remote has no branch ${options.branch}` };
      } catch (err) {
        return { name: 'fix publisher', adapter, ok: false, detail: asMedicError(err).message };
      }
    },
  };
}

/** Subject naming the incident, the caller's body, and the trailers that make retries idempotent. */
export function commitMessage(input: PublishInput): string {
  // Every line above the trailers came from logs, git or the model: inert for GitHub and CI.
  const text = inertGitText(redactSecrets(input.message).replace(/\r/g, '').trim());
  const [first = '', ...rest] = text.split('\n');
  // A caller's conventional subject, or git's own `Revert "…"`, is kept as it is (prefixing it again
  // doubled it: `fix(a): fix(b): …`).
  const kept = first.includes(input.incidentId) || isConventionalSubject(first) || first.startsWith('Revert "');
  const subject = clipSubject(kept ? first : `fix(${input.incidentId}): ${first || 'apply the approved fix'}`);
  const body = rest.join('\n').trim().slice(0, 4_000);
  return [subject, body, `Medic-Incident: ${input.incidentId}\n${TRAILER}: ${input.proposal.contentHash}`].filter(Boolean).join('\n\n');
}
