import type { CatalogRepository, ServiceRoute } from '../domain/catalog/catalog.js';
import { isInside } from '../domain/catalog/assemble-catalog.js';
import { ErrorCode, MedicError } from '../domain/errors.js';
import type { CodeRepository, DeployMarker, FixPublisher, FixRef, MergeState, PullRequests } from '../ports/code.js';

type DeployKind = Parameters<NonNullable<PullRequests['deployment']>>[2];
import type { ServiceCheck } from '../ports/service-check.js';
import type { CheckProposal } from '../ports/proposal-checks.js';
import type { ServiceCatalog } from '../ports/service-catalog.js';
import type { CodeHost } from './create-code-host.js';
import { findCodeOwners } from './code-owners.js';
import { reviewRequestOf } from '../domain/codeowners.js';
import type { Logger } from '../observability/logger.js';

export interface RoutedCodeHostDeps {
  catalog: ServiceCatalog;
  /** The code host of one catalog repository, built once per repository. */
  hostFor(repository: CatalogRepository): CodeHost;
  /** The incident the current call belongs to (the job's invocation scope). */
  currentIncident(): string | undefined;
  /** The log service name of an incident. */
  serviceOf(incidentId: string): Promise<string | undefined>;
  logger?: Pick<Logger, 'warn'>;
}

export interface RoutedCodeHost {
  repo: CodeRepository;
  unlockedRepo: CodeRepository;
  publisher: FixPublisher;
  pullRequests: PullRequests;
  /** The incident's service's check command run on a proposal, in its repository's worktree. */
  checkProposal: CheckProposal;
  /** The route of an incident (or, outside one, of the catalog's catch-all). */
  routeOf(incidentId: string | undefined): Promise<ServiceRoute>;
  /** Every repository's host (sync at start, doctor). */
  hosts(): CodeHost[];
}

/**
 * One port over many repositories: every call is routed to the repository of the incident it
 * runs for, and restricted to the service's directory in a monorepo. A service with no repository
 * (an unknown one, or one declared without code) sees an empty tree: no candidates, no history,
 * and a publish is refused — so no fix can ever reach someone else's repository.
 */
export function createRoutedCodeHost(deps: RoutedCodeHostDeps): RoutedCodeHost {
  const built = new Map<string, CodeHost>();
  const host = (repository: CatalogRepository) => {
    const key = `${repository.id}\n${repository.remote ?? ''}\n${repository.branch}\n${repository.github ?? ''}`;
    let h = built.get(key);
    if (!h) built.set(key, (h = deps.hostFor(repository)));
    return h;
  };
  const routeOf = async (incidentId: string | undefined): Promise<ServiceRoute> => {
    const service = incidentId === undefined ? undefined : await deps.serviceOf(incidentId);
    return deps.catalog.route(service ?? '');
  };
  const target = async (incidentId = deps.currentIncident()) => {
    const route = await routeOf(incidentId);
    return route.known && route.repository ? { route, host: host(route.repository), path: route.service.path } : undefined;
  };
  const allHosts = () => deps.catalog.current().repositories.map(host);

  const routedRepo = (pick: (h: CodeHost) => CodeRepository): CodeRepository => ({
    async sync() {
      // Outside an incident (start, doctor): every repository of the catalog, not only the one
      // undeclared services route to.
      const incidentId = deps.currentIncident();
      const t = incidentId === undefined ? undefined : await target(incidentId);
      if (t) return pick(t.host).sync();
      if (incidentId !== undefined) return;
      for (const h of allHosts()) await pick(h).sync();
    },
    async listFiles() {
      const t = await target();
      if (!t) return [];
      const files = await pick(t.host).listFiles();
      return t.path === '' ? files : files.filter((f) => isInside(f, t.path));
    },
    async readFile(path) {
      const t = await target();
      return t ? pick(t.host).readFile(path) : undefined;
    },
    async revision() {
      const t = await target();
      const revision = t && (await pick(t.host).revision?.());
      return t && revision !== undefined ? JSON.stringify([t.host.repositoryId, t.host.remoteUrl, t.path, revision]) : undefined;
    },
    async recentChanges(paths, sinceDays, limit, until) {
      const t = await target();
      return t ? pick(t.host).recentChanges(paths, sinceDays, limit, until) : [];
    },
    async blame(path, line) {
      const t = await target();
      return t ? pick(t.host).blame(path, line) : undefined;
    },
    async blameFunction(path, fn) {
      const t = await target();
      return t ? pick(t.host).blameFunction(path, fn) : undefined;
    },
    async commitFileChange(sha, path) {
      const t = await target();
      return t ? pick(t.host).commitFileChange(sha, path) : undefined;
    },
    check: () => combinedCheck('repository', allHosts().map((h) => () => pick(h).check())),
  });

  const checkProposal: CheckProposal = async ({ incidentId, proposal }, options = {}) => {
    const t = await target(incidentId);
    const at = new Date().toISOString();
    const unchecked = (reason: string) => ({ status: 'not-checked' as const, contentHash: proposal.contentHash, at, reason });
    if (!t) return unchecked(`incident ${incidentId}'s service has no repository in the service catalog`);
    const settings = t.route.service.check;
    if (!settings) return unchecked(`the service catalog names no check command for ${t.route.service.name}`);
    if (!isInside(proposal.file, t.path)) return { status: 'not-run', contentHash: proposal.contentHash, at, reason: `${proposal.file} is outside ${t.route.service.name}'s directory ${t.path}/` };
    return t.host.checkProposal({ proposal, settings, path: t.path, ...(options.signal ? { signal: options.signal } : {}) });
  };

  return {
    routeOf,
    hosts: allHosts,
    checkProposal,
    repo: routedRepo((h) => h.repo),
    unlockedRepo: routedRepo((h) => h.unlockedRepo),
    publisher: {
      async publish(input) {
        const t = await target(input.incidentId);
        if (!t) throw new MedicError(ErrorCode.FixRefused, `Incident ${input.incidentId}'s service has no repository in the service catalog; nothing was pushed.`);
        if (!isInside(input.proposal.file, t.path)) throw new MedicError(ErrorCode.FixRefused, `${input.proposal.file} is outside ${t.route.service.name}'s directory ${t.path}/; nothing was pushed.`);
        return t.host.publisher.publish(input);
      },
      check: () => combinedCheck('fix publisher', allHosts().map((h) => () => h.publisher.check())),
    },
    pullRequests: {
      async open(input) {
        const t = await target();
        if (!t) return undefined;
        const pr = await t.host.pullRequests.open(input);
        const request = t.host.pullRequests.requestReviewers?.bind(t.host.pullRequests);
        if (!pr || !request || input.file === undefined) return pr;
        // The code owners of the changed file review it; an unreadable CODEOWNERS or a failed request never loses the PR.
        const owners = await findCodeOwners(t.host.repo, input.file).catch((error: unknown) => {
          deps.logger?.warn({ err: error, pullRequest: pr.number }, 'could not read the code owners; no review requested');
          return [];
        });
        const { users, teams } = reviewRequestOf(owners);
        if (users.length + teams.length === 0) return pr;
        try {
          await request(pr.number, { users, teams });
          return { ...pr, reviewers: owners.filter((o) => o.startsWith('@')) };
        } catch (error) {
          deps.logger?.warn({ err: error, pullRequest: pr.number, owners }, 'could not request reviews from the code owners');
          return pr;
        }
      },
      // Check runs are read where some repository has them; a repository without answers pending.
      ...(deps.catalog.current().repositories.some((r) => host(r).pullRequests.checks !== undefined)
        ? {
            async checks(branch: string) {
              const t = await target();
              const read = t?.host.pullRequests.checks?.bind(t.host.pullRequests);
              return read ? read(branch) : 'pending';
            },
          }
        : {}),
      // After the merge, the same per service: a repository whose host cannot tell answers not
      // merged and no deploy, and a service without a repository has nothing to follow.
      ...(deps.catalog.current().repositories.some((r) => host(r).pullRequests.mergeState !== undefined)
        ? {
            async mergeState(fix: FixRef): Promise<MergeState> {
              const t = await target();
              const read = t?.host.pullRequests.mergeState?.bind(t.host.pullRequests);
              return read ? read(fix) : { merged: false };
            },
          }
        : {}),
      ...(deps.catalog.current().repositories.some((r) => host(r).pullRequests.deployment !== undefined)
        ? {
            async deployment(commit: string, sinceIso: string, kind: DeployKind, environment?: string): Promise<DeployMarker | undefined> {
              const t = await target();
              const read = t?.host.pullRequests.deployment?.bind(t.host.pullRequests);
              return read ? read(commit, sinceIso, kind, environment) : undefined;
            },
          }
        : {}),
      check: () => combinedCheck('pull requests', allHosts().map((h) => () => h.pullRequests.check())),
    },
  };
}

/** One check over every repository: ok when all are, the detail naming each. */
async function combinedCheck(name: string, checks: (() => Promise<ServiceCheck>)[]): Promise<ServiceCheck> {
  const results = await Promise.all(checks.map((c) => c().catch((error: unknown): ServiceCheck => ({ name, adapter: '?', ok: false, detail: String(error) }))));
  if (results.length === 1 && results[0]) return results[0];
  return {
    name: results[0]?.name ?? name,
    adapter: [...new Set(results.map((r) => r.adapter))].join(', '),
    ok: results.every((r) => r.ok),
    detail: results.map((r) => `${r.ok ? 'ok' : 'FAIL'}: ${r.detail}`).join('; '),
  };
}
