/**
 * CodeRepository over Medic's own clone of the service repository (simple-git). Read-only from
 * the service's point of view: sync fetches and resets the private clone, everything else reads.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RecentChange } from '../../domain/analysis.js';
import { asMedicError } from '../../domain/errors.js';
import type { CodeRepository, LoggedCommit } from '../../ports/code.js';
import { assertRepoRelativePath, readRepoFile } from '../../code-search/safe-read.js';
import { assertCredentialFreeRemote, type GitCredentials } from './git-credentials.js';
import { blameFunction, blameLine, commitFileChange } from './git-history.js';
import { createGitRunner } from './git-runner.js';
import { ensureClone, fetchBranches, remoteHeads, withCloneLock } from './medic-clone.js';

export interface GitRepositoryOptions {
  remoteUrl: string;
  branch: string;
  /** Medic's clone, under its data directory (e.g. `<MEDIC_DATA_DIR>/repo`). */
  workDir: string;
  credentials?: GitCredentials;
  /** A git command silent this long is killed (MEDIC_GIT_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The clock for "changes in the last N days". */
  now?: () => Date;
}

const FIELD = '\x1f';
const RECORD = '\x1e';

/** Medic's clone reads its branch's whole log too. */
export type GitRepository = CodeRepository & Required<Pick<CodeRepository, 'commitLog'>>;

export function createGitRepository(options: GitRepositoryOptions): GitRepository {
  assertCredentialFreeRemote(options.remoteUrl);
  const workDir = resolve(options.workDir);
  const git = createGitRunner({ workDir, remoteUrl: options.remoteUrl, credentials: options.credentials, timeoutMs: options.timeoutMs });
  const now = options.now ?? (() => new Date());
  const originRef = `refs/remotes/origin/${options.branch}`;

  async function sync(): Promise<void> {
    await withCloneLock(workDir, async () => {
      await ensureClone(git, workDir, options.remoteUrl);
      await fetchBranches(git, [options.branch]);
      await git.run(['checkout', '--quiet', '--force', '-B', options.branch, originRef]);
      await git.run(['clean', '-ffdxq']);
    });
  }

  async function ensureSynced(): Promise<void> {
    if (!existsSync(join(workDir, '.git'))) await sync();
  }

  return {
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    sync,
    async check() {
      const adapter = `git ${options.remoteUrl} (${options.branch})`;
      try {
        await withCloneLock(workDir, () => ensureClone(git, workDir, options.remoteUrl));
        const heads = await remoteHeads(git, [options.branch]);
        const head = heads.get(options.branch);
        return head
          ? { name: 'code repository', adapter, ok: true, detail: `${options.branch} at ${head.slice(0, 10)}; clone in ${workDir}` }
          : { name: 'code repository', adapter, ok: false, detail: `the remote has no branch ${options.branch}: check MEDIC_REPO_BRANCH` };
      } catch (err) {
        return { name: 'code repository', adapter, ok: false, detail: asMedicError(err).message };
      }
    },
    async listFiles() {
      await ensureSynced();
      const out = await git.run(['ls-files', '-z', '--cached']);
      return out.split('\0').filter(Boolean);
    },
    async readFile(path) {
      await ensureSynced();
      return readRepoFile(workDir, path);
    },
    async recentChanges(paths, sinceDays, limit, until): Promise<RecentChange[]> {
      await ensureSynced();
      for (const p of paths) assertRepoRelativePath(p);
      const end = until !== undefined && Number.isFinite(Date.parse(until)) ? new Date(until) : now();
      const since = new Date(end.getTime() - sinceDays * 86_400_000).toISOString();
      const out = await git.run([
        'log', `--since=${since}`, `--until=${end.toISOString()}`, `--max-count=${Math.max(1, Math.min(limit, 500))}`, '--name-only', '--no-renames',
        `--format=${RECORD}%H${FIELD}%an${FIELD}%aI${FIELD}%s`, originRef, '--', ...paths.map((p) => `:(literal)${p}`),
      ]);
      return out.split(RECORD).filter((r) => r.trim()).map(parseLogRecord);
    },
    async commitLog(since, maxCount) {
      await ensureSynced();
      const out = await git.run([
        'log', `--since=${new Date(since).toISOString()}`, `--max-count=${Math.max(1, Math.floor(maxCount))}`, '--name-only', '--no-renames',
        `--format=${RECORD}%H${FIELD}%an${FIELD}%aI${FIELD}%cI${FIELD}%s`, originRef,
      ]);
      return out.split(RECORD).filter((r) => r.trim()).map(parseLoggedCommit);
    },
    async blame(path, line) {
      await ensureSynced();
      return blameLine(git, originRef, path, line);
    },
    async blameFunction(path, fn) {
      await ensureSynced();
      return blameFunction(git, originRef, path, fn);
    },
    async commitFileChange(sha, path) {
      await ensureSynced();
      return commitFileChange(git, sha, path);
    },
  };
}

function parseLogRecord(record: string): RecentChange {
  const [header = '', ...rest] = record.split('\n');
  const [sha = '', author = '', date = '', subject = ''] = header.split(FIELD);
  return { sha, author, date, subject, files: rest.map((l) => l.trim()).filter(Boolean) };
}

function parseLoggedCommit(record: string): LoggedCommit {
  const [header = '', ...rest] = record.split('\n');
  const [sha = '', author = '', date = '', committedAt = '', subject = ''] = header.split(FIELD);
  return { sha, author, date, committedAt, subject, files: rest.map((l) => l.trim()).filter(Boolean) };
}
