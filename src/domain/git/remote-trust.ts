/**
 * Pure: where a git remote points and whether Medic may talk to it. A remote is a local path (no
 * network, no credentials), a URL (`https://host/owner/name.git`, `ssh://git@host/…`) or the scp
 * form (`git@host:owner/name.git`). Credentials travel only over HTTPS, or plain HTTP to a
 * loopback server (tests, a sandbox); a catalog remote must be the GitHub repository its slug names
 * or live on a host the operator allowed, so an edited catalog cannot send code or a token elsewhere.
 */
import type { CatalogProblem, CatalogRepository } from '../catalog/catalog.js';

export interface RemoteLocation {
  scheme: string;
  /** Lower-case host name, without port or user. */
  host: string;
  /** The path after the host, without leading slash. */
  path: string;
}

const SCP_LIKE = /^(?:[^@/:]+@)?([^/:]+):(?!\/\/)(.+)$/;

/** Undefined for a local path (or `file://`). */
export function remoteLocation(remote: string): RemoteLocation | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(remote)) {
    let url: URL;
    try {
      url = new URL(remote);
    } catch {
      return { scheme: 'invalid', host: '', path: remote };
    }
    const scheme = url.protocol.slice(0, -1).toLowerCase();
    if (scheme === 'file') return undefined;
    return { scheme, host: url.hostname.toLowerCase().replace(/^\[|\]$/g, ''), path: decodeURIComponent(url.pathname).replace(/^\/+/, '') };
  }
  // A Windows drive (`C:\…`) or a relative path with a colon later is a path, not scp syntax.
  const scp = /^[A-Za-z]:[\\/]/.test(remote) || remote.startsWith('/') || remote.startsWith('.') ? null : SCP_LIKE.exec(remote);
  if (scp) return { scheme: 'ssh', host: scp[1]!.toLowerCase(), path: scp[2]!.replace(/^\/+/, '') };
  return undefined;
}

export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** The web (and git) host of a GitHub REST base: api.github.com → github.com; GHES keeps its host. */
export function githubWebHost(apiUrl: string | undefined): string {
  if (apiUrl === undefined) return 'github.com';
  const host = new URL(apiUrl).hostname.toLowerCase();
  return host === 'api.github.com' ? 'github.com' : host.replace(/^api\./, '');
}

/** Why credentials must not go to this remote; undefined when they may (HTTPS, or HTTP on loopback). */
export function credentialTransportProblem(remote: string): string | undefined {
  const where = remoteLocation(remote);
  if (!where || where.scheme === 'https' || where.scheme === 'ssh') return undefined;
  if (where.scheme === 'http' && isLoopbackHost(where.host)) return undefined;
  if (where.scheme === 'http') return `plain http:// to ${where.host} would carry the code and the git token unencrypted; use https:// (http:// is accepted only for a loopback host)`;
  return `the ${where.scheme}:// scheme is not supported for a remote; use https://, ssh or a local path`;
}

export interface RemotePolicy {
  /** The GitHub web host slugs resolve to (github.com, or the Enterprise host). */
  githubHost: string;
  /** Further hosts a catalog remote may name (MEDIC_GIT_ALLOWED_HOSTS, hosts with their own token). */
  allowedHosts: readonly string[];
}

const slugPath = (path: string) => path.replace(/\/+$/, '').replace(/\.git$/i, '').toLowerCase();

/** Why this repository's remote is refused; undefined when it agrees with its slug or an allowed host. */
export function remoteTrustProblem(repository: CatalogRepository, policy: RemotePolicy): string | undefined {
  if (!repository.remote) return undefined;
  const where = remoteLocation(repository.remote);
  if (!where) return undefined;
  if (where.scheme === 'invalid') return 'the remote is not a valid URL';
  const transport = credentialTransportProblem(repository.remote);
  if (transport) return transport;
  if (isLoopbackHost(where.host)) return undefined;
  const githubHost = policy.githubHost.toLowerCase();
  if (repository.github) {
    if (where.host === githubHost && slugPath(where.path) === repository.github.toLowerCase()) return undefined;
    return `the remote ${where.host}/${slugPath(where.path)} is not the GitHub repository ${githubHost}/${repository.github} its github slug names; make them agree`;
  }
  if (policy.allowedHosts.some((h) => h.toLowerCase() === where.host)) return undefined;
  return `the remote's host ${where.host} is neither ${githubHost} with a github slug nor listed in MEDIC_GIT_ALLOWED_HOSTS`;
}

/** Every repository whose remote Medic refuses, as catalog problems. */
export function remoteTrustProblems(repositories: readonly CatalogRepository[], policy: RemotePolicy, source = 'catalog'): CatalogProblem[] {
  return repositories.flatMap((repository) => {
    const message = remoteTrustProblem(repository, policy);
    return message ? [{ where: `${source}: repository ${repository.id}`, message }] : [];
  });
}
