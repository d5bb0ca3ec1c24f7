import { execFileSync } from 'node:child_process';

/** Reads a bare remote with plain git: branches under a prefix and commits between refs. */
export function gitIn(gitDir: string, args: string[]): string {
  return execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8' }).trim();
}

export function fixBranches(gitDir: string): string[] {
  const out = gitIn(gitDir, ['for-each-ref', '--format=%(refname:short)', 'refs/heads/fix/']);
  return out === '' ? [] : out.split('\n');
}
