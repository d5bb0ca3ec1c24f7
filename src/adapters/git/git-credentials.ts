/**
 * How Medic authenticates to an HTTPS git remote without the token ever touching a URL, argv or
 * `.git/config`: each network command gets `http.<origin>/.extraheader` through git's
 * GIT_CONFIG_COUNT/KEY/VALUE environment (readable only by Medic's own user, unlike argv, which
 * `ps` shows everyone). The header is scoped to the remote's origin, so a redirect to another host
 * never receives it. This is the header actions/checkout uses: basic base64(x-access-token:TOKEN).
 */
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { redactSecrets } from '../../domain/untrusted/redact.js';
import { credentialTransportProblem } from '../../domain/git/remote-trust.js';

export interface GitCredentials {
  /** GitHub expects `x-access-token` for installation tokens and PATs. */
  username?: string;
  /** A static token, or a source that refreshes one (a GitHub App installation token). */
  token: string | (() => Promise<string>);
}

/** Throws when the remote URL carries credentials: they would land in `.git/config`. */
export function assertCredentialFreeRemote(remoteUrl: string): void {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(remoteUrl)) return;
  const url = new URL(remoteUrl);
  if (url.username || url.password) {
    throw new MedicError(ErrorCode.ConfigInvalid, 'MEDIC_REPO_REMOTE must not contain credentials: put the token in GIT_TOKEN (or configure a GitHub App) and use a plain https:// URL.');
  }
}

export function isHttpRemote(remoteUrl: string): boolean {
  return /^https?:\/\//i.test(remoteUrl);
}

export interface GitAuth {
  /** Environment additions for one network command. */
  env: Record<string, string>;
  /** Strings that must never appear in anything Medic reports. */
  secrets: string[];
}

/** The per-command auth environment; empty for local remotes or when no credentials are set. */
export async function resolveGitAuth(remoteUrl: string, credentials: GitCredentials | undefined): Promise<GitAuth> {
  if (!credentials || !isHttpRemote(remoteUrl)) return { env: {}, secrets: [] };
  const transport = credentialTransportProblem(remoteUrl);
  if (transport) throw new MedicError(ErrorCode.ConfigInvalid, `Refusing to send git credentials: ${transport}.`);
  const token = typeof credentials.token === 'string' ? credentials.token : await credentials.token();
  const basic = Buffer.from(`${credentials.username ?? 'x-access-token'}:${token}`, 'utf8').toString('base64');
  const origin = `${new URL(remoteUrl).origin}/`;
  return {
    env: { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `http.${origin}.extraheader`, GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}` },
    secrets: [token, basic],
  };
}

/**
 * The `<yyyymmddhhmmss>` stamp of a Medic fix branch (`fix/<incident>-<stamp>`, see fixBranchName):
 * fourteen digits pass a card-number check one time in ten, and redacting them would hide which
 * branch an error is about. Only the stamp in that exact position is spared.
 */
const FIX_BRANCH_STAMP = /(?<=\bfix\/[A-Za-z0-9][A-Za-z0-9._-]{0,63}-)\d{14}(?!\d)/g;

/** Removes known secrets and anything that looks like one from git's output. */
export function redactGitText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[REDACTED]');
  const stamps = [...out.matchAll(FIX_BRANCH_STAMP)];
  let redacted = '';
  let from = 0;
  for (const stamp of stamps) {
    redacted += redactSecrets(out.slice(from, stamp.index)) + stamp[0];
    from = stamp.index + stamp[0].length;
  }
  redacted += redactSecrets(out.slice(from));
  return redacted.replace(/AUTHORIZATION:\s*\S+\s+\S+/gi, 'AUTHORIZATION: [REDACTED]');
}
