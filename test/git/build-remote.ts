/** Test builders: a bare remote with a small service on `main`, made with the real git CLI. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

export function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', GIT_TERMINAL_PROMPT: '0' },
  });
}

export interface TestRemote {
  root: string;
  /** The bare repository's path (a local remote URL). */
  bare: string;
  /** A scratch clone used to push new commits to the remote. */
  commitToMain(files: Record<string, string>, message: string): string;
  cleanup(): void;
}

export const SAMPLE_FILES: Record<string, string> = {
  'src/checkout/discounts.ts': 'export function perItem(amount: number, count: number): number {\n  return Math.floor(amount / count);\n}\n',
  'src/payments/client.ts': 'export function authId(body: { auth: { id: string } | null }): string {\n  return body.auth.id;\n}\n',
  'README.md': '# shop\n',
};

/** Creates `<root>/remote.git` with SAMPLE_FILES, a symlink out of the repo and a binary file. */
export function buildRemote(name = 'remote.git'): TestRemote {
  const root = mkdtempSync(join(tmpdir(), 'medic-git-test-'));
  const bare = join(root, name);
  const scratch = join(root, 'scratch');
  gitIn(root, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
  gitIn(root, 'init', '--quiet', '--initial-branch=main', scratch);
  for (const [file, content] of Object.entries(SAMPLE_FILES)) {
    mkdirSync(dirname(join(scratch, file)), { recursive: true });
    writeFileSync(join(scratch, file), content);
  }
  symlinkSync('/etc/hostname', join(scratch, 'src/outside-link.ts'));
  writeFileSync(join(scratch, 'src/logo.ts'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
  gitIn(scratch, 'add', '-A');
  gitIn(scratch, 'commit', '--quiet', '-m', 'initial service');
  gitIn(scratch, 'remote', 'add', 'origin', bare);
  gitIn(scratch, 'push', '--quiet', 'origin', 'main');
  return {
    root,
    bare,
    commitToMain(files, message) {
      gitIn(scratch, 'pull', '--quiet', '--ff-only', 'origin', 'main');
      for (const [file, content] of Object.entries(files)) {
        mkdirSync(dirname(join(scratch, file)), { recursive: true });
        writeFileSync(join(scratch, file), content);
      }
      gitIn(scratch, 'add', '-A');
      gitIn(scratch, 'commit', '--quiet', '-m', message);
      gitIn(scratch, 'push', '--quiet', 'origin', 'main');
      return gitIn(scratch, 'rev-parse', 'HEAD').trim();
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Branch name → sha on a bare remote. */
export function remoteBranches(bare: string): Map<string, string> {
  const out = gitIn(bare, 'for-each-ref', '--format=%(refname:short) %(objectname)', 'refs/heads');
  return new Map(out.trim().split('\n').filter(Boolean).map((l) => l.split(' ') as [string, string]));
}

/** A fresh bare remote and the place of Medic's clone of it, for each test of the calling suite. */
export function useRemoteClone(): { readonly remote: TestRemote; readonly workDir: string } {
  let remote: TestRemote | undefined;
  beforeEach(() => {
    remote = buildRemote();
  });
  afterEach(() => remote?.cleanup());
  return {
    get remote() {
      return remote!;
    },
    get workDir() {
      return join(remote!.root, 'data', 'repo');
    },
  };
}
