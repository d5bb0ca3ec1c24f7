/** Octokit's RequestError → a coded MedicError that tells the operator what to check. */
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { redactSecrets } from '../../domain/untrusted/redact.js';

interface RequestErrorLike {
  status?: number;
  message?: string;
  response?: { data?: unknown; headers?: Record<string, string | undefined> };
}

export function githubErrorText(err: unknown): string {
  const e = err as RequestErrorLike;
  const data = e?.response?.data;
  return `${e?.message ?? ''} ${typeof data === 'string' ? data : JSON.stringify(data ?? '')}`;
}

/** `permissions`: what the token or App needs for `action`, named in the 403 message. */
export function asGitHubError(err: unknown, action: string, permissions = 'Pull requests: write, Checks: read'): MedicError {
  const e = err as RequestErrorLike;
  const status = typeof e?.status === 'number' ? e.status : undefined;
  const detail = redactSecrets(String(e?.message ?? err)).slice(0, 300);
  if (status === 401) return new MedicError(ErrorCode.UpstreamRejected, `GitHub answered 401 to ${action}: check GITHUB_TOKEN or the GitHub App credentials.`);
  const rateLimited = status === 429 || (status === 403 && (e.response?.headers?.['x-ratelimit-remaining'] === '0' || /rate limit/i.test(detail)));
  if (rateLimited) return new MedicError(ErrorCode.UpstreamUnavailable, `GitHub rate-limited ${action}; it will be retried.`, { transient: true });
  if (status === 403) return new MedicError(ErrorCode.UpstreamRejected, `GitHub answered 403 to ${action}: the token or App lacks permission (${permissions}).`);
  if (status === 404) return new MedicError(ErrorCode.UpstreamRejected, `GitHub answered 404 to ${action}: check GITHUB_REPOSITORY and that the token can see it.`);
  if (status === undefined || status >= 500) return new MedicError(ErrorCode.UpstreamUnavailable, `GitHub is unavailable for ${action}: ${detail}`, { transient: true });
  return new MedicError(ErrorCode.UpstreamRejected, `GitHub refused ${action} (${status}): ${detail}`);
}
