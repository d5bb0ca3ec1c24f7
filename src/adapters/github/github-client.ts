/**
 * Octokit for Medic: a token (PAT or fine-grained) or a GitHub App installation, against
 * github.com or a GitHub Enterprise base URL. With an App, installation tokens are created on
 * first use and refreshed before they expire (auth-app's hook; our cache reads `expires_at`).
 */
import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/rest';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { createExpiringTokenCache } from './expiring-token-cache.js';

export type GitHubAuth = { token: string } | { appId: string | number; privateKey: string; installationId: string | number };

export interface GitHubClientOptions {
  /** https://api.github.com, or https://ghe.example.com/api/v3 for GitHub Enterprise Server. */
  baseUrl?: string;
  auth: GitHubAuth;
  /** Clock for installation-token expiry (tests move it). */
  now?: () => number;
  logger?: { warn(obj: object, msg: string): void };
}

export const DEFAULT_GITHUB_API_URL = 'https://api.github.com';

export function createGitHubClient(options: GitHubClientOptions): Octokit {
  const baseUrl = (options.baseUrl ?? DEFAULT_GITHUB_API_URL).replace(/\/+$/, '');
  // Octokit logs to the console by default; Medic keeps its logs structured and quiet.
  const log = {
    debug: () => undefined,
    info: () => undefined,
    warn: (message: string) => options.logger?.warn({ source: 'octokit' }, message),
    error: (message: string) => options.logger?.warn({ source: 'octokit' }, message),
  };
  if ('token' in options.auth) return new Octokit({ baseUrl, auth: options.auth.token, log, userAgent: 'medic' });
  return new Octokit({
    baseUrl,
    log,
    userAgent: 'medic',
    authStrategy: createAppAuth,
    // auth-app receives this Octokit's own `request` (same baseUrl), so token creation talks to
    // the configured server, never to api.github.com behind the operator's back.
    auth: {
      appId: options.auth.appId,
      privateKey: options.auth.privateKey,
      installationId: options.auth.installationId,
      cache: createExpiringTokenCache({ now: options.now }),
    },
  });
}

/**
 * The token git should push with: the PAT as is, or a fresh installation token (the App needs
 * Contents: write). Hand it to the git adapter's `credentials.token`.
 */
export function createGitHubTokenSource(octokit: Octokit): () => Promise<string> {
  return async () => {
    const auth = (await octokit.auth({ type: 'installation' })) as { token?: string };
    if (!auth.token) throw new MedicError(ErrorCode.UpstreamRejected, 'GitHub returned no token for git: check the GitHub App installation.');
    return auth.token;
  };
}
