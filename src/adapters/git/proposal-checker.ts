/**
 * Runs a service's check command on a proposal before anyone may approve it: a detached worktree
 * of Medic's clone at the default branch (the one the fix would start from), the one proposed
 * file written there, the command run in the service's directory under `runCheckCommand`'s
 * limits, and the worktree removed. Medic's clone itself is never written: its files stay what
 * code search and blame read.
 */
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { CheckSettings } from '../../domain/catalog/catalog.js';
import { CHECK_LIMITS } from '../../domain/catalog/parse-catalog-file.js';
import { asMedicError } from '../../domain/errors.js';
import type { FixProposal } from '../../domain/fix.js';
import { sha256 } from '../../domain/hash.js';
import { boundCheckOutput, type ProposalCheck } from '../../domain/proposal-check.js';
import { redactSecrets } from '../../domain/untrusted/redact.js';
import { readRepoFile } from '../../code-search/safe-read.js';
import type { GitRunner } from './git-runner.js';
import { checkEnvironment, detectIsolation, runCheckCommand, type Isolation } from './run-check.js';

export interface ProposalCheckInput {
  proposal: FixProposal;
  settings: CheckSettings;
  /** The service's directory in the repository ('' = its root): where the command runs. */
  path: string;
  signal?: AbortSignal;
}

export interface ProposalCheckerOptions {
  git: GitRunner;
  /** The default branch the fix would start from. */
  branch: string;
  /** Where the check's worktrees go (removed after each check). */
  worktreeRoot: string;
  /** Medic's own node_modules, offered to the command (see `checkEnvironment`). */
  medicNodeModules?: string;
  /** Holds the clone's lock while the worktree is added or removed (not while the command runs). */
  withLock?: <T>(fn: () => Promise<T>) => Promise<T>;
  /**
   * Runs a whole check when one of the process's check slots is free: a storm's proposals are
   * checked a few at a time, not one compiler per incident on the same cores.
   */
  slots?: <T>(fn: () => Promise<T>) => Promise<T>;
  isolation?: () => Isolation;
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
  logger?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export type ProposalChecker = (input: ProposalCheckInput) => Promise<ProposalCheck>;

export function createProposalChecker(options: ProposalCheckerOptions): ProposalChecker {
  const { git } = options;
  const locked = options.withLock ?? (<T>(fn: () => Promise<T>) => fn());
  const now = options.now ?? (() => new Date());
  const originDefault = `refs/remotes/origin/${options.branch}`;

  const slots = options.slots ?? (<T>(fn: () => Promise<T>) => fn());

  return (input) => {
    const queuedAt = Date.now();
    return slots(() => {
      const waitedMs = Date.now() - queuedAt;
      if (waitedMs > 1_000) options.logger?.info({ file: input.proposal.file, waitedMs }, 'proposal check waited for a check slot');
      return checkOnce(input);
    });
  };

  async function checkOnce({ proposal, settings, path, signal }: ProposalCheckInput): Promise<ProposalCheck> {
    // The command is the operator's text; shown on the card, so redacted like everything shown.
    const base = { contentHash: proposal.contentHash, command: redactSecrets(settings.command), at: now().toISOString() };
    const notRun = (reason: string): ProposalCheck => ({ ...base, status: 'not-run', reason: redactSecrets(reason).slice(0, 500) });
    // Its job gave up while the check waited for a slot: nobody would read the result.
    if (signal?.aborted) return notRun('the check was cancelled before it started');
    await mkdir(options.worktreeRoot, { recursive: true });
    await removeAbandoned(options.worktreeRoot, locked, git);
    const dir = resolve(await mkdtemp(join(options.worktreeRoot, 'medic-check-')));
    try {
      try {
        await locked(() => git.run(['worktree', 'add', '--quiet', '--detach', dir, originDefault]));
      } catch (error) {
        return notRun(`no worktree of ${options.branch}: ${asMedicError(error).message}`);
      }
      const current = await readRepoFile(dir, proposal.file).catch(() => undefined);
      if (current === undefined) return notRun(`${proposal.file} is not a regular file on ${options.branch}`);
      if (sha256(current) !== proposal.baseHash) return notRun(`${proposal.file} changed on ${options.branch} since the proposal was made`);
      await writeFile(join(dir, proposal.file), proposal.after, 'utf8');
      const isolation = (options.isolation ?? detectIsolation)();
      const run = await runCheckCommand({
        command: settings.command, cwd: path === '' ? dir : join(dir, path), timeoutMs: settings.timeoutS * 1000, memoryMb: settings.memoryMb,
        env: checkEnvironment(options.env ?? process.env, options.medicNodeModules), isolation, signal,
      });
      const { output, omittedBytes } = boundCheckOutput(run.output, run.droppedBytes);
      const status = run.timedOut ? 'timed-out' : run.exitCode === 0 ? 'passed' : 'failed';
      const reason = run.timedOut ? `killed after ${settings.timeoutS} s` : run.signal ? `ended by ${run.signal}` : undefined;
      options.logger?.info({ file: proposal.file, command: base.command, status, durationMs: run.durationMs, isolation: isolation.label }, 'proposal checked');
      return {
        ...base, status, durationMs: run.durationMs, isolation: isolation.label, output, omittedBytes,
        ...(run.exitCode !== undefined ? { exitCode: run.exitCode } : {}), ...(reason ? { reason } : {}),
      };
    } finally {
      await locked(() => git.run(['worktree', 'remove', '--force', dir])).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
      await locked(() => git.run(['worktree', 'prune'])).catch(() => undefined);
    }
  }
}

// Older than the longest check allows: its worker died before removing it.
const ABANDONED_AFTER_MS = (CHECK_LIMITS.maxTimeoutS + 600) * 1000;

/** Removes check worktrees a crashed worker left behind (never one a live check may still use). */
async function removeAbandoned(root: string, locked: <T>(fn: () => Promise<T>) => Promise<T>, git: GitRunner): Promise<void> {
  const names = (await readdir(root).catch(() => [])).filter((n) => n.startsWith('medic-check-'));
  let removed = 0;
  for (const name of names) {
    const info = await stat(join(root, name)).catch(() => undefined);
    if (!info || Date.now() - info.mtimeMs < ABANDONED_AFTER_MS) continue;
    await rm(join(root, name), { recursive: true, force: true });
    removed += 1;
  }
  if (removed > 0) await locked(() => git.run(['worktree', 'prune'])).catch(() => undefined);
}
