/**
 * What GitHub says happened to a fix after its PR: merged or not (the PR itself), and the first
 * deploy that contains the merge commit — a deployment whose status turned success, or a published
 * release — after the merge. A deploy of a later commit contains the fix too, so containment is
 * asked of GitHub's compare (`base...head` ahead or identical), not read off the deployed sha.
 * Every read is bounded: a few pages of the newest items and a fixed number of compares.
 */
import type { Octokit } from '@octokit/rest';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { DeployMarker, FixRef, MergeState } from '../../ports/code.js';
import { asGitHubError } from './github-errors.js';

export interface GitHubVerifyOptions {
  octokit: Octokit;
  owner: string;
  repo: string;
}

/** The newest deployments or releases read per call; older ones predate any fix Medic follows. */
export const DEPLOY_CANDIDATES = 30;
/** Compares and status reads per call: each is one API request. */
export const MAX_LOOKUPS = 12;

const PERMISSIONS = 'Pull requests: read, Deployments: read, Contents: read';
const SHA = /^[0-9a-f]{7,40}$/i;

export type DeployKind = 'github-deployment' | 'github-release';

export interface GitHubVerify {
  mergeState(fix: FixRef): Promise<MergeState>;
  deployment(commit: string, sinceIso: string, kind: DeployKind, environment?: string): Promise<DeployMarker | undefined>;
}

function sinceMs(sinceIso: string): number {
  const ms = Date.parse(sinceIso);
  if (!Number.isFinite(ms)) throw new MedicError(ErrorCode.ValidationFailed, `Not a time: ${JSON.stringify(sinceIso.slice(0, 40))} (expected ISO 8601).`);
  return ms;
}

const atOrAfter = (iso: string | null | undefined, since: number) => typeof iso === 'string' && Date.parse(iso) >= since;

export function createGitHubVerify({ octokit, owner, repo }: GitHubVerifyOptions): GitHubVerify {
  const fail = (action: string) => (err: unknown): never => {
    throw asGitHubError(err, action, PERMISSIONS);
  };

  async function pullNumberOf(fix: FixRef): Promise<number | undefined> {
    if (fix.pullNumber !== undefined) return fix.pullNumber;
    const { data } = await octokit.rest.pulls
      .list({ owner, repo, head: `${owner}:${fix.branch}`, state: 'all', per_page: 10 })
      .catch(fail(`finding the pull request of ${fix.branch}`));
    // A merged PR wins over a later one opened and closed for the same branch.
    return (data.find((p) => p.merged_at) ?? data[0])?.number;
  }

  /** Whether `head` contains `commit`, by GitHub's compare; a ref GitHub does not know contains nothing. */
  function containment() {
    const known = new Map<string, boolean>();
    let lookups = 0;
    return {
      spent: () => lookups,
      count: () => void lookups++,
      async contains(commit: string, head: string): Promise<boolean> {
        if (SHA.test(head) && (head.toLowerCase().startsWith(commit.toLowerCase()) || commit.toLowerCase().startsWith(head.toLowerCase()))) return true;
        const cached = known.get(head);
        if (cached !== undefined) return cached;
        lookups++;
        try {
          const { data } = await octokit.rest.repos.compareCommitsWithBasehead({ owner, repo, basehead: `${commit}...${head}`, per_page: 1 });
          const yes = data.status === 'ahead' || data.status === 'identical';
          known.set(head, yes);
          return yes;
        } catch (err) {
          // 404: the deployed ref is gone (a deleted tag, a force-pushed sha) or shares no history.
          if ((err as { status?: number }).status === 404) return (known.set(head, false), false);
          throw asGitHubError(err, `comparing ${commit.slice(0, 12)} with ${head.slice(0, 40)}`, PERMISSIONS);
        }
      },
    };
  }

  async function firstDeployment(commit: string, since: number, environment: string | undefined): Promise<DeployMarker | undefined> {
    const { data } = await octokit.rest.repos
      .listDeployments({ owner, repo, per_page: DEPLOY_CANDIDATES, ...(environment ? { environment } : {}) })
      .catch(fail(`listing the deployments${environment ? ` of ${environment}` : ''}`));
    // GitHub lists the newest first; the first deploy after the merge is the oldest of those since.
    const candidates = data.filter((d) => atOrAfter(d.created_at, since)).reverse();
    const budget = containment();
    for (const d of candidates) {
      if (budget.spent() >= MAX_LOOKUPS) break;
      if (!(await budget.contains(commit, d.sha))) continue;
      budget.count();
      const { data: statuses } = await octokit.rest.repos
        .listDeploymentStatuses({ owner, repo, deployment_id: d.id, per_page: 100 })
        .catch(fail(`reading the statuses of deployment #${d.id}`));
      const success = statuses
        .filter((s) => s.state === 'success' && atOrAfter(s.created_at, since))
        .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))[0];
      if (success) return { at: new Date(success.created_at).toISOString(), marker: `deployment ${d.environment} #${d.id}` };
    }
    return undefined;
  }

  async function firstRelease(commit: string, since: number): Promise<DeployMarker | undefined> {
    const { data } = await octokit.rest.repos.listReleases({ owner, repo, per_page: DEPLOY_CANDIDATES }).catch(fail('listing the releases'));
    const candidates = data
      .filter((r) => !r.draft && atOrAfter(r.published_at, since))
      .sort((a, b) => Date.parse(a.published_at ?? '') - Date.parse(b.published_at ?? ''));
    const budget = containment();
    for (const r of candidates) {
      if (budget.spent() >= MAX_LOOKUPS) break;
      if (await budget.contains(commit, r.tag_name)) return { at: new Date(r.published_at ?? '').toISOString(), marker: `release ${r.tag_name}` };
    }
    return undefined;
  }

  return {
    async mergeState(fix) {
      if (!fix.branch.startsWith('fix/')) throw new MedicError(ErrorCode.ValidationFailed, `Not a fix branch: ${JSON.stringify(fix.branch.slice(0, 80))}.`);
      const number = await pullNumberOf(fix);
      if (number === undefined) return { merged: false };
      const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number }).catch(fail(`reading pull request #${number}`));
      if (!data.merged) return { merged: false };
      return {
        merged: true,
        ...(data.merged_at ? { mergedAt: new Date(data.merged_at).toISOString() } : {}),
        ...(data.merge_commit_sha ? { commit: data.merge_commit_sha } : {}),
      };
    },
    async deployment(commit, sinceIso, kind, environment) {
      if (!SHA.test(commit)) throw new MedicError(ErrorCode.ValidationFailed, `Not a commit sha: ${JSON.stringify(commit.slice(0, 60))}.`);
      const since = sinceMs(sinceIso);
      if (kind === 'github-deployment') return firstDeployment(commit, since, environment);
      if (kind === 'github-release') return firstRelease(commit, since);
      throw new MedicError(ErrorCode.ValidationFailed, `Unknown deploy marker kind ${JSON.stringify(String(kind).slice(0, 40))}.`);
    },
  };
}
