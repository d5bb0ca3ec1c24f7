import type { Catalog, CatalogProblem, CatalogRepository, CatalogService } from './catalog.js';
import type { CatalogPart } from './parse-catalog-file.js';

const CREDENTIALS_IN_URL = /:\/\/[^/@]+@/;

/**
 * Pure: joins the parts read from Medic's file and Backstage entities into one catalog, listing
 * every problem that would misroute an incident: a name or alias claimed twice, a repository
 * named but not declared or declared twice differently, a remote carrying credentials.
 */
export function assembleCatalog(parts: readonly CatalogPart[], defaults: { channel: string }): { catalog?: Catalog; problems: CatalogProblem[] } {
  const problems: CatalogProblem[] = [];
  const repositories = new Map<string, { repo: CatalogRepository; source: string }>();
  const services: CatalogService[] = [];
  const serviceSource = new Map<string, string>();
  const aliasOwner = new Map<string, string>();
  let defaultChannel: string | undefined;
  let unknownRoutesTo: { name: string; source: string } | undefined;

  for (const part of parts) {
    for (const repo of part.repositories) {
      const seen = repositories.get(repo.id);
      if (!seen) repositories.set(repo.id, { repo, source: part.source });
      else if (seen.repo.remote !== repo.remote || seen.repo.branch !== repo.branch) {
        problems.push({ where: `${part.source}: repository ${repo.id}`, message: `is also declared in ${seen.source} with another remote or branch` });
      } else if (!seen.repo.github && repo.github) seen.repo = { ...seen.repo, github: repo.github };
      if (repo.remote && CREDENTIALS_IN_URL.test(repo.remote)) problems.push({ where: `${part.source}: repository ${repo.id}`, message: 'the remote must not contain credentials; put the token in GIT_TOKEN' });
    }
    if (part.defaultChannel) {
      if (defaultChannel && defaultChannel !== part.defaultChannel) problems.push({ where: part.source, message: `default_channel ${part.defaultChannel} contradicts ${defaultChannel} set elsewhere` });
      defaultChannel ??= part.defaultChannel;
    }
    if (part.unknownRoutesTo) unknownRoutesTo ??= { name: part.unknownRoutesTo, source: part.source };
  }
  for (const part of parts) {
    for (const service of part.services) {
      const where = `${part.source}: service ${service.name}`;
      const earlier = serviceSource.get(service.name);
      if (earlier) {
        problems.push({ where, message: `is also declared in ${earlier}` });
        continue;
      }
      serviceSource.set(service.name, part.source);
      if (service.repository !== undefined && !repositories.has(service.repository)) problems.push({ where, message: `names repository ${service.repository}, which no repositories entry declares` });
      if (service.repository === undefined && service.path !== '') problems.push({ where, message: 'has a path but no repository' });
      for (const alias of new Set([service.name, ...service.aliases].map((a) => a.toLowerCase()))) {
        const owner = aliasOwner.get(alias);
        if (owner && owner !== service.name) problems.push({ where, message: `alias "${alias}" already names service ${owner}` });
        else aliasOwner.set(alias, service.name);
      }
      services.push({ ...service, channel: service.channel ?? defaultChannel ?? defaults.channel });
    }
  }
  if (unknownRoutesTo && !serviceSource.has(unknownRoutesTo.name)) problems.push({ where: unknownRoutesTo.source, message: `unknown_services.route_to names ${unknownRoutesTo.name}, which is not a declared service` });
  // Two services in one repository must not share a directory unless both own the whole repository.
  for (const [i, a] of services.entries()) {
    for (const b of services.slice(i + 1)) {
      if (a.repository && a.repository === b.repository && a.path !== b.path && (isInside(a.path, b.path) || isInside(b.path, a.path))) {
        problems.push({ where: `service ${b.name}`, message: `its path "${b.path}" overlaps service ${a.name}'s "${a.path}" in repository ${a.repository}` });
      }
    }
  }
  if (problems.length > 0) return { problems };
  return {
    problems,
    catalog: {
      services,
      repositories: [...repositories.values()].map((r) => r.repo),
      defaultChannel: defaultChannel ?? defaults.channel,
      unknownRoutesTo: unknownRoutesTo?.name,
      sources: parts.map((p) => p.source),
    },
  };
}

/** Whether directory `inner` is `outer` or below it ('' holds everything). */
export function isInside(inner: string, outer: string): boolean {
  return outer === '' || inner === outer || inner.startsWith(`${outer}/`);
}
