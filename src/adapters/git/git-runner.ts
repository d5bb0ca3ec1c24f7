/**
 * One place that runs git for Medic's clone: a clean environment (the operator's GIT_* variables
 * must not steer Medic's private clone, and git must never wait for a password prompt), optional
 * per-command credentials, and errors turned into coded, redacted MedicErrors.
 */
import { simpleGit, type SimpleGit } from 'simple-git';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { redactGitText, resolveGitAuth, type GitCredentials } from './git-credentials.js';

export interface GitRunner {
  /** A local command (no network, no credentials). */
  run(args: string[], baseDir?: string): Promise<string>;
  /** A command that talks to the remote, with the auth header in its environment only. */
  remote(args: string[]): Promise<string>;
  readonly secrets: () => readonly string[];
}

export interface GitRunnerOptions {
  workDir: string;
  remoteUrl: string;
  credentials?: GitCredentials;
  author?: { name: string; email: string };
  /** A local command that prints nothing for this long is killed (simple-git's block timeout). */
  timeoutMs?: number;
}

// Inherited so git runs at all and reaches the network the way the host does; everything else
// (GIT_*, EDITOR, PAGER, askpass helpers) stays out, so only Medic configures its private clone.
const INHERITED = /^(PATH|HOME|USER|LOGNAME|LANG|TMPDIR|TEMP|TMP|SYSTEMROOT|COMSPEC|PATHEXT|(?:https?|no|all)_proxy|(?:HTTPS?|NO|ALL)_PROXY|SSL_CERT_FILE|SSL_CERT_DIR|NODE_EXTRA_CA_CERTS)$/;

function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && INHERITED.test(key)) env[key] = value;
  return { ...env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
}

export function createGitRunner(options: GitRunnerOptions): GitRunner {
  const author = options.author ?? { name: 'Medic', email: 'medic@localhost' };
  // Per-command settings that keep a commit reproducible whatever the host's global git config says.
  const config = [`user.name=${author.name}`, `user.email=${author.email}`, 'commit.gpgsign=false', 'core.autocrlf=false', 'advice.detachedHead=false'];
  let seen: string[] = [];

  // Only local commands get the silence timeout: a clone or fetch may rightly say nothing for long.
  function git(baseDir: string, extraEnv: Record<string, string> = {}, allowEnvConfig = false, blockMs?: number): SimpleGit {
    return simpleGit({ baseDir, config, unsafe: { allowUnsafeConfigEnvCount: allowEnvConfig }, ...(blockMs ? { timeout: { block: blockMs } } : {}) }).env({ ...baseEnv(), ...extraEnv });
  }

  function fail(args: string[], err: unknown, secrets: readonly string[]): MedicError {
    const raw = err instanceof Error ? err.message : String(err);
    const text = redactGitText(raw, secrets).trim().split('\n').slice(-6).join('\n').slice(0, 600);
    const network = /could not resolve|unable to access|connection refused|timed out|Could not read from remote|early EOF|HTTP 5\d\d|returned error: 5\d\d/i.test(raw);
    const denied = /401|403|Authentication failed|terminal prompts disabled|Permission denied/i.test(raw);
    const code = denied ? ErrorCode.UpstreamRejected : network ? ErrorCode.UpstreamUnavailable : ErrorCode.Internal;
    const hint = denied ? ' Check GIT_TOKEN (or the GitHub App installation) and its write access to the repository.' : '';
    // No `cause`: the raw error carries git's unredacted text.
    return new MedicError(code, `git ${args[0] ?? ''} failed: ${text}${hint}`, { transient: network });
  }

  return {
    secrets: () => seen,
    async run(args, baseDir = options.workDir) {
      try {
        return await git(baseDir, {}, false, options.timeoutMs).raw(args);
      } catch (err) {
        throw fail(args, err, seen);
      }
    },
    async remote(args) {
      const auth = await resolveGitAuth(options.remoteUrl, options.credentials);
      seen = [...new Set([...seen, ...auth.secrets])].slice(-8);
      try {
        return await git(options.workDir, auth.env, Object.keys(auth.env).length > 0).raw(args);
      } catch (err) {
        throw fail(args, err, auth.secrets);
      }
    },
  };
}
