import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RedisClient } from '../adapters/redis/connect.js';
import { createGitFixPublisher } from '../adapters/git/git-fix-publisher.js';
import { createGitMergeState } from '../adapters/git/git-merge-state.js';
import { createGitRepository } from '../adapters/git/git-repository.js';
import { createGitRunner } from '../adapters/git/git-runner.js';
import { withCloneLock } from '../adapters/git/medic-clone.js';
import { createProposalChecker, type ProposalChecker } from '../adapters/git/proposal-checker.js';
import { installDir } from '../install-dir.js';
import { readHeadRevision } from '../adapters/git/head-revision.js';
import { createRevisionCachedRepository } from '../adapters/git/revision-cache.js';
import type { GitCredentials } from '../adapters/git/git-credentials.js';
import { createGitHubClient, createGitHubTokenSource, DEFAULT_GITHUB_API_URL, type GitHubAuth } from '../adapters/github/github-client.js';
import { createGitHubPullRequests } from '../adapters/github/github-pull-requests.js';
import { createNoPullRequests } from '../adapters/github/no-pull-requests.js';
import { withRedisLock } from '../adapters/redis/redis-lock.js';
import type { Config } from '../config/schema.js';
import type { Logger } from '../observability/logger.js';
import type { CodeRepository, FixPublisher, PullRequests } from '../ports/code.js';
import type { CatalogRepository } from '../domain/catalog/catalog.js';
import type { MedicPaths } from './paths.js';
import { remoteOf, repositoryDirs } from './repository-dirs.js';
import { registerSecretValue } from '../domain/untrusted/known-secrets.js';
import { parseHostTokens, tokenForRemote, type CredentialHosts } from '../domain/git/credential-hosts.js';
import { githubWebHost, remoteLocation } from '../domain/git/remote-trust.js';

type TokenSource = () => Promise<string>;

/** Each configured token bound to its one host (see credential-hosts.ts). */
export function credentialHosts(config: Config, appToken: TokenSource | undefined): CredentialHosts<string | TokenSource> {
  const { tokens } = parseHostTokens(config.MEDIC_GIT_TOKENS);
  for (const value of tokens.values()) registerSecretValue(value);
  const githubHost = githubWebHost(config.GITHUB_API_URL ?? DEFAULT_GITHUB_API_URL);
  const repoHost = config.MEDIC_REPO_REMOTE ? remoteLocation(config.MEDIC_REPO_REMOTE)?.host : githubHost;
  const githubToken = config.GITHUB_TOKEN ?? appToken;
  return {
    perHost: tokens,
    ...(config.GIT_TOKEN && repoHost ? { gitToken: { host: repoHost, token: config.GIT_TOKEN } } : {}),
    ...(githubToken ? { github: { host: githubHost, token: githubToken } } : {}),
  };
}

export interface CodeHost {
  /** The catalog repository this host clones. */
  repositoryId: string;
  remoteUrl: string;
  /** Where the clone lives. */
  cloneDir: string;
  repo: CodeRepository;
  /** The same clone without the cross-process lock, for work already inside it. */
  unlockedRepo: CodeRepository;
  publisher: FixPublisher;
  pullRequests: PullRequests;
  /** Runs a service's check command on a proposal in a worktree of this clone. */
  checkProposal: ProposalChecker;
  /** Runs `fn` holding the data-directory lock that every git operation on the clone takes. */
  withDataLock: <T>(fn: () => Promise<T>) => Promise<T>;
}

/**
 * The code host of one catalog repository: Medic's clone of its remote (or the local sample
 * remote), the token bound to its remote's host (MEDIC_GIT_TOKENS, GIT_TOKEN, GITHUB_TOKEN or a
 * GitHub App; none for any other host), and GitHub PRs when the
 * repository names its GitHub `owner/name` (GITHUB_REPOSITORY for the implicit one).
 */
export interface CodeHostInput {
  config: Config;
  redis: RedisClient;
  logger: Logger;
  paths: MedicPaths;
  repository: CatalogRepository;
  /** The process's proposal-check slots, shared by every repository's host. */
  checkSlots?: <T>(fn: () => Promise<T>) => Promise<T>;
}

export function createCodeHost({ config, redis, logger, paths, repository, checkSlots }: CodeHostInput): CodeHost {
  const remoteUrl = remoteOf(paths, repository);
  const dirs = repositoryDirs(paths, repository.id);
  const baseUrl = config.GITHUB_API_URL ?? DEFAULT_GITHUB_API_URL;
  const appKey = config.GITHUB_APP_PRIVATE_KEY ?? (config.GITHUB_APP_PRIVATE_KEY_FILE ? readFileSync(config.GITHUB_APP_PRIVATE_KEY_FILE, 'utf8') : undefined);
  registerSecretValue(appKey);
  const auth: GitHubAuth | undefined = config.GITHUB_APP_ID && appKey && config.GITHUB_APP_INSTALLATION_ID
    ? { appId: config.GITHUB_APP_ID, privateKey: appKey, installationId: config.GITHUB_APP_INSTALLATION_ID }
    : config.GITHUB_TOKEN ? { token: config.GITHUB_TOKEN } : undefined;
  const octokit = auth ? createGitHubClient({ baseUrl, auth, logger }) : undefined;
  const token = tokenForRemote(remoteUrl, credentialHosts(config, octokit && config.GITHUB_APP_ID ? createGitHubTokenSource(octokit) : undefined));
  const credentials: GitCredentials | undefined = token ? { token } : undefined;

  const git = { remoteUrl, branch: repository.branch, workDir: dirs.clone, credentials, timeoutMs: config.MEDIC_GIT_TIMEOUT_MS };
  // Worker processes sharing this data directory share one clone; git work on it takes turns.
  const withDataLock = <T>(fn: (lost: AbortSignal) => Promise<T>) =>
    withRedisLock(redis, `${config.MEDIC_REDIS_PREFIX}lock:data:${repository.id === 'default' ? paths.data : dirs.clone}`, fn, { leaseMs: config.MEDIC_DATA_LOCK_LEASE_MS });
  const gitRepo = createGitRepository(git);
  // Reading history needs no turn once the clone exists, as listing and reading files never did:
  // git log reads objects and an atomically updated ref, which a concurrent sync never tears.
  // Only the first read, which may have to create the clone, takes the lock.
  const cloned = () => existsSync(join(dirs.clone, '.git'));
  const lockedRepo: CodeRepository = {
    ...gitRepo,
    sync: () => withDataLock(() => gitRepo.sync()),
    recentChanges: (...args) => (cloned() ? gitRepo.recentChanges(...args) : withDataLock(() => gitRepo.recentChanges(...args))),
    commitLog: (...args) => (cloned() ? gitRepo.commitLog(...args) : withDataLock(() => gitRepo.commitLog(...args))),
    blame: (...args) => (cloned() ? gitRepo.blame(...args) : withDataLock(() => gitRepo.blame(...args))),
    blameFunction: (...args) => (cloned() ? gitRepo.blameFunction(...args) : withDataLock(() => gitRepo.blameFunction(...args))),
    commitFileChange: (...args) => (cloned() ? gitRepo.commitFileChange(...args) : withDataLock(() => gitRepo.commitFileChange(...args))),
  };
  // One cache per process over the shared clone, keyed by the commit it is at: the incidents of a
  // storm read the same files and git logs once, and a cache hit takes no lock and runs no git.
  const repo = createRevisionCachedRepository(lockedRepo, { revision: () => readHeadRevision(dirs.clone) });
  const unlockedRepo: CodeRepository = { ...repo, sync: () => gitRepo.sync() };
  const gitPublisher = createGitFixPublisher({ ...git, worktreeRoot: dirs.worktrees, logger, author: { name: config.MEDIC_GIT_AUTHOR_NAME, email: config.MEDIC_GIT_AUTHOR_EMAIL } });
  const medicNodeModules = join(installDir(), 'node_modules');
  const checkProposal = createProposalChecker({
    git: createGitRunner({ workDir: dirs.clone, remoteUrl, timeoutMs: config.MEDIC_GIT_TIMEOUT_MS }), branch: repository.branch, worktreeRoot: dirs.worktrees, logger,
    ...(existsSync(medicNodeModules) ? { medicNodeModules } : {}),
    withLock: (fn) => withDataLock(() => withCloneLock(dirs.clone, fn)),
    ...(checkSlots ? { slots: checkSlots } : {}),
  });
  const [owner, name] = (repository.github ?? '').split('/');
  const gitMergeState = createGitMergeState(git);
  const pullRequests = auth && owner && name
    ? createGitHubPullRequests({ baseUrl, auth, owner, repo: name, defaultBranch: repository.branch, octokit, logger })
    // No code host: the fix merged when its branch reached the default branch, read in the same clone under the same lock.
    : createNoPullRequests({ remote: remoteUrl, mergeState: (fix) => withDataLock(() => gitMergeState(fix)) });
  return {
    repositoryId: repository.id,
    remoteUrl,
    cloneDir: dirs.clone,
    unlockedRepo,
    repo,
    // The worktree root is made on first use: a repository added by a catalog reload has none yet.
    // Losing the clone's lock stops the fix work as losing its own write lease does.
    publisher: {
      ...gitPublisher,
      publish: (input) =>
        withDataLock(async (lost) => {
          await mkdir(dirs.worktrees, { recursive: true });
          const signal = input.guard?.signal ? AbortSignal.any([input.guard.signal, lost]) : lost;
          return gitPublisher.publish({ ...input, guard: { ...input.guard, signal } });
        }),
    },
    pullRequests,
    checkProposal,
    withDataLock,
  };
}
