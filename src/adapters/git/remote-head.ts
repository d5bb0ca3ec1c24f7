import { tmpdir } from 'node:os';
import { createGitRunner } from './git-runner.js';

/**
 * The branch a remote's HEAD names (`master`, `trunk`, `main`…), asked with `git ls-remote
 * --symref` and no credentials; undefined when the remote does not answer (a private remote, no
 * network) or names none. MEDIC_REPO_BRANCH, when set, is used instead.
 */
export async function remoteDefaultBranch(remoteUrl: string, timeoutMs = 15_000): Promise<string | undefined> {
  const git = createGitRunner({ workDir: tmpdir(), remoteUrl });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), timeoutMs); });
  try {
    const out = await Promise.race([git.remote(['ls-remote', '--symref', '--', remoteUrl, 'HEAD']).catch(() => undefined), deadline]);
    return out === undefined ? undefined : parseSymref(out);
  } finally {
    clearTimeout(timer);
  }
}

/** `ref: refs/heads/master\tHEAD` → `master`. */
export function parseSymref(out: string): string | undefined {
  const m = /^ref: refs\/heads\/(\S+)\s+HEAD$/m.exec(out);
  return m?.[1];
}
