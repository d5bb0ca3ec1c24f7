/**
 * The suspect commit, measured against the SZZ truth (the commits that introduced the lines each
 * fix deleted or modified). Medic's own suspect finding runs on a work tree of the project at the
 * buggy revision from its mirror (a shared clone: no objects copied), with `medic
 * locate`'s frame limit; the baseline beside it is plain `git blame` of the line of the trace's
 * first in-project frame. A case without a mirror, or whose fix only added lines (no SZZ truth),
 * is counted as unmeasured, never dropped silently.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createWorkTreeHistory } from '../src/adapters/git/work-tree-history.js';
import { findSuspectCommitsIn } from '../src/retrieval/find-suspect-commits.js';
import type { RealCase } from './localization-real-cases.js';
import { traceOrder } from './localization-trace-order.js';

const run = promisify(execFile);
/** `medic locate`'s default limit, which is also how many frames it blames. */
const LOCATE_FRAMES = 10;
const QUIET_GIT = ['-c', 'core.hooksPath=/dev/null', '-c', 'advice.detachedHead=false'];

export interface SuspectResult {
  id: string;
  language: string;
  /** 1-based position of the first suspect that is an SZZ commit; 0 for none. */
  rank: number;
  blameHit: boolean;
  suspects: string[];
}

export interface SuspectRun {
  results: SuspectResult[];
  noMirror: number;
  noSzz: number;
}

async function git(dir: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', [...QUIET_GIT, '-C', dir, ...args], { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_LFS_SKIP_SMUDGE: '1' } });
  return stdout;
}

async function blameSha(dir: string, rev: string, file: string, line: number): Promise<string | undefined> {
  const out = await git(dir, ['blame', '--porcelain', '-L', `${line},${line}`, rev, '--', file]).catch(() => '');
  return /^([0-9a-f]{40}) /.exec(out)?.[1];
}

export function mirrorOf(mirrors: string, project: string): string {
  return join(mirrors, project.replace('/', '+'), 'repo');
}

export async function runSuspectCases(cases: readonly RealCase[], opts: { mirrors: string; workDir: string }): Promise<SuspectRun> {
  const results: SuspectResult[] = [];
  let noMirror = 0;
  let noSzz = 0;
  const clones = new Map<string, string>();
  for (const c of cases) {
    if (c.szz.commits.length === 0) {
      noSzz++;
      continue;
    }
    const mirror = mirrorOf(opts.mirrors, c.project);
    if (!existsSync(mirror)) {
      noMirror++;
      continue;
    }
    let dir = clones.get(c.project);
    if (!dir) {
      dir = join(opts.workDir, c.project.replace('/', '+'));
      await run('git', [...QUIET_GIT, 'clone', '-q', '--shared', '--no-checkout', mirror, dir]);
      clones.set(c.project, dir);
    }
    // HEAD at the buggy revision with the files the trace names and the fix changed written out:
    // a mirror lacks blobs of 4 MiB and more, so a full checkout of some projects cannot be had.
    const frames = traceOrder(c.trace, c.files);
    await git(dir, ['update-ref', '--no-deref', 'HEAD', c.buggy]);
    await git(dir, ['read-tree', c.buggy]);
    await git(dir, ['checkout', '-f', c.buggy, '--', ...new Set([...frames.map((f) => f.file), ...c.truth])]).catch(() => '');
    const history = createWorkTreeHistory(dir);
    if (!history) throw new Error(`${dir} is not a git work tree`);
    const time = (await git(dir, ['log', '-1', '--format=%cI', c.fix])).trim();
    const suspects = (await findSuspectCommitsIn({ listFiles: async () => c.files, ...history }, { text: c.trace, time, frames: LOCATE_FRAMES })).map((s) => s.sha);
    const truth = new Set(c.szz.commits);
    const first = frames[0];
    const blamed = first ? await blameSha(dir, 'HEAD', first.file, first.line) : undefined;
    const at = suspects.findIndex((sha) => truth.has(sha));
    results.push({ id: c.id, language: c.language, rank: at === -1 ? 0 : at + 1, blameHit: blamed !== undefined && truth.has(blamed), suspects: suspects.slice(0, 3) });
  }
  return { results, noMirror, noSzz };
}
