/**
 * Pure: which configured token, if any, goes to a remote. Every token is bound to one host:
 * MEDIC_GIT_TOKENS names its hosts explicitly; GIT_TOKEN belongs to MEDIC_REPO_REMOTE's host (the
 * GitHub host without one); GITHUB_TOKEN and a GitHub App's installation token belong to the GitHub
 * host. A remote on any other host gets no credentials at all, whoever named it.
 */
import { credentialTransportProblem, remoteLocation } from './remote-trust.js';

export interface CredentialHosts<T> {
  /** host → token, from MEDIC_GIT_TOKENS. */
  perHost: ReadonlyMap<string, string>;
  gitToken?: { host: string; token: string };
  /** GITHUB_TOKEN, or the App's token source, on the GitHub host. */
  github?: { host: string; token: T };
}

/** Parses `host=token,host=token`; returns the problems instead of throwing (for the config schema). */
export function parseHostTokens(value: string | undefined): { tokens: Map<string, string>; problems: string[] } {
  const tokens = new Map<string, string>();
  const problems: string[] = [];
  for (const entry of (value ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = entry.indexOf('=');
    const host = eq > 0 ? entry.slice(0, eq).trim().toLowerCase() : '';
    const token = eq > 0 ? entry.slice(eq + 1).trim() : '';
    if (!/^[a-z0-9.-]+$/.test(host) || token === '') {
      problems.push(`entry ${tokens.size + problems.length + 1} is not host=token (a bare host name such as git.example.com, then its token)`);
      continue;
    }
    if (tokens.has(host)) problems.push(`${host} is named twice`);
    tokens.set(host, token);
  }
  return { tokens, problems };
}

/** The token for this remote's host, or undefined (local path, other host, or a plain-http remote). */
export function tokenForRemote<T>(remote: string, hosts: CredentialHosts<T>): string | T | undefined {
  const where = remoteLocation(remote);
  if (!where || (where.scheme !== 'https' && where.scheme !== 'http')) return undefined;
  if (credentialTransportProblem(remote)) return undefined;
  const own = hosts.perHost.get(where.host);
  if (own !== undefined) return own;
  if (hosts.gitToken && hosts.gitToken.host === where.host) return hosts.gitToken.token;
  if (hosts.github && hosts.github.host === where.host) return hosts.github.token;
  return undefined;
}
