import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** One commit of a test repository: files written (path → content), with a fixed date and author. */
export interface TestCommit {
  message: string;
  date: string;
  author?: string;
  files: Record<string, string>;
}

/** Builds a real bare repository at `bare` from `commits` (oldest first) on `main`, with plain git. */
export function createBareRemote(bare: string, commits: TestCommit[]): string {
  const work = mkdtempSync(join(tmpdir(), 'medic-remote-'));
  try {
    const git = (args: string[], env: Record<string, string> = {}) =>
      execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd: work, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', ...env } });
    git(['init', '--quiet', '-b', 'main']);
    for (const commit of commits) {
      for (const [path, content] of Object.entries(commit.files)) {
        mkdirSync(dirname(join(work, path)), { recursive: true });
        writeFileSync(join(work, path), content);
      }
      const [name, email] = (commit.author ?? 'Dana Test <dana@example.test>').replace('>', '').split(' <') as [string, string];
      git(['add', '-A']);
      git(['commit', '--quiet', '-m', commit.message], { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email, GIT_AUTHOR_DATE: commit.date, GIT_COMMITTER_DATE: commit.date });
    }
    execFileSync('git', ['clone', '--quiet', '--bare', work, bare]);
    return bare;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** A function whose guard a later commit broke: the good version, and the one that throws. */
export function guardedFile(fn: string): { good: string; bad: string } {
  const good = `export function ${fn}(total: number, count: number): number {\n  if (count <= 0) return 0;\n  return Math.floor(total / count);\n}\n`;
  const bad = `export function ${fn}(total: number, count: number): number {\n  if (count <= 0) throw new RangeError(\`${fn}: bad count \${count}\`);\n  return Math.floor(total / count);\n}\n`;
  return { good, bad };
}

/** One error of `service` thrown by `fn` at line 2 of `/srv/<deployed>/<file>`, as a JSON log line. */
export function guardErrorLine(service: string, deployed: string, file: string, fn: string, at: string, requestId: string, what: string): string {
  const message = `${what} failed: RangeError: ${fn}: bad count 0`;
  return JSON.stringify({
    time: at, level: 'ERROR', service, message, requestId,
    stack: `RangeError: ${fn}: bad count 0\n    at ${fn} (/srv/${deployed}/${file}:2:27)\n    at handle (/srv/${deployed}/src/handler.ts:5:10)`,
  });
}
