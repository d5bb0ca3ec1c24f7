/**
 * PullRequests on GitHub: a draft PR from the fix branch to the default branch (a normal one where
 * drafts are unsupported), reused when one is already open for the branch; plus the PR head's
 * check runs for the follow-up watch, and after the merge, whether it merged and the first deploy
 * containing it (github-verify.ts).
 */
import type { Octokit } from '@octokit/rest';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { redactSecrets } from '../../domain/untrusted/redact.js';
import type { PullRequestInput, PullRequests } from '../../ports/code.js';
import { createGitHubClient, type GitHubClientOptions } from './github-client.js';
import { asGitHubError, githubErrorText } from './github-errors.js';
import { createGitHubVerify } from './github-verify.js';

export interface GitHubPullRequestsOptions extends GitHubClientOptions {
  owner: string;
  repo: string;
  defaultBranch: string;
  /** An existing client (e.g. the one the git token source uses); built from the options otherwise. */
  octokit?: Octokit;
}

export type CheckState = 'pending' | 'success' | 'failure';

export interface CheckSummary {
  state: CheckState;
  total: number;
  /** Names of the check runs that failed (empty unless state is failure). */
  failing: string[];
  pending: string[];
}

export interface GitHubPullRequests extends PullRequests {
  watchChecks(ref: string): Promise<CheckSummary>;
}

const FAILED = new Set(['failure', 'cancelled', 'timed_out', 'action_required', 'startup_failure', 'stale']);
const MAX_BODY = 60_000; // GitHub rejects bodies over 65,536 characters.

export function createGitHubPullRequests(options: GitHubPullRequestsOptions): GitHubPullRequests {
  const octokit = options.octokit ?? createGitHubClient(options);
  const { owner, repo } = options;

  async function findOpen(branch: string): Promise<{ number: number; url: string } | undefined> {
    const { data } = await octokit.rest.pulls.list({ owner, repo, head: `${owner}:${branch}`, state: 'open', per_page: 5 });
    const pr = data[0];
    return pr ? { number: pr.number, url: pr.html_url } : undefined;
  }

  async function create(input: PullRequestInput, draft: boolean) {
    const { data } = await octokit.rest.pulls.create({
      owner, repo, head: input.branch, base: options.defaultBranch, draft,
      title: redactSecrets(input.title).slice(0, 250),
      body: redactSecrets(input.body).slice(0, MAX_BODY),
    });
    return { number: data.number, url: data.html_url };
  }

  async function open(input: PullRequestInput): Promise<{ number: number; url: string }> {
    if (!input.branch.startsWith('fix/')) throw new MedicError(ErrorCode.FixRefused, 'Refused pull request: only fix/ branches are proposed.');
    try {
      try {
        return await create(input, true);
      } catch (err) {
        if ((err as { status?: number }).status === 422 && /draft pull requests are not supported/i.test(githubErrorText(err))) return await create(input, false);
        throw err;
      }
    } catch (err) {
      if ((err as { status?: number }).status === 422 && /pull request already exists/i.test(githubErrorText(err))) {
        const existing = await findOpen(input.branch).catch((e: unknown) => {
          throw asGitHubError(e, 'listing pull requests');
        });
        if (existing) return existing;
      }
      throw asGitHubError(err, `opening a pull request for ${input.branch}`);
    }
  }

  const verify = createGitHubVerify({ octokit, owner, repo });
  const pullRequests: GitHubPullRequests = {
    open,
    mergeState: (fix) => verify.mergeState(fix),
    deployment: (commit, sinceIso, kind, environment) => verify.deployment(commit, sinceIso, kind, environment),
    async requestReviewers(pullNumber, request) {
      try {
        await octokit.rest.pulls.requestReviewers({ owner, repo, pull_number: pullNumber, reviewers: request.users, team_reviewers: request.teams });
      } catch (err) {
        throw asGitHubError(err, `requesting reviews on pull request #${pullNumber}`);
      }
    },
    async checks(branch) {
      return (await pullRequests.watchChecks(branch)).state;
    },
    async watchChecks(ref) {
      try {
        const { data } = await octokit.rest.checks.listForRef({ owner, repo, ref, per_page: 100 });
        const failing = data.check_runs.filter((r) => r.status === 'completed' && FAILED.has(r.conclusion ?? '')).map((r) => r.name);
        const pending = data.check_runs.filter((r) => r.status !== 'completed').map((r) => r.name);
        // No check run yet means CI has not started: pending, not success.
        const state: CheckState = failing.length > 0 ? 'failure' : pending.length > 0 || data.check_runs.length === 0 ? 'pending' : 'success';
        return { state, total: data.total_count, failing, pending };
      } catch (err) {
        throw asGitHubError(err, `reading check runs of ${ref}`);
      }
    },
    async check() {
      const adapter = `github ${options.baseUrl ?? 'https://api.github.com'} ${owner}/${repo}`;
      try {
        const { data } = await octokit.rest.repos.get({ owner, repo });
        return { name: 'pull requests', adapter, ok: true, detail: `draft PRs into ${options.defaultBranch} of ${data.full_name}` };
      } catch (err) {
        return { name: 'pull requests', adapter, ok: false, detail: asGitHubError(err, 'reading the repository').message };
      }
    },
  };
  return pullRequests;
}
