/**
 * History reads on Medic's clone: who last changed a line or a function (blame follows renames
 * and moved lines), and a file just before and after a commit. Read-only; arguments are checked
 * before they reach git, so no path or name can become an option.
 */
import type { BlameHit, CommitFileChange } from '../../ports/code.js';
import { assertRepoRelativePath } from '../../code-search/safe-read.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { GitRunner } from './git-runner.js';

const SHA = /^[0-9a-f]{7,40}$/;
/** A function name git's funcname matching can take literally. */
const FUNCTION_NAME = /^[A-Za-z_$][\w$]{0,100}$/;
const FIELD = '\x1f';

export function assertCommitSha(sha: string): void {
  if (!SHA.test(sha)) throw new MedicError(ErrorCode.ValidationFailed, `"${sha.slice(0, 60)}" is not a commit id.`);
}

export async function blameLine(git: GitRunner, rev: string, path: string, line: number): Promise<BlameHit | undefined> {
  assertRepoRelativePath(path);
  if (!Number.isInteger(line) || line < 1) return undefined;
  // -M and -C follow lines moved within and across files; whole-file renames are followed by blame itself.
  // Blaming a revision, never the work tree, so no clean filter of the repository's config runs; --no-textconv likewise.
  const out = await git.run(['blame', '--porcelain', '--no-textconv', '-w', '-M', '-C', '-L', `${line},${line}`, rev, '--', path]).catch(() => undefined);
  return out === undefined ? undefined : parsePorcelain(out);
}

export function parsePorcelain(out: string): BlameHit | undefined {
  const lines = out.split('\n');
  const sha = /^([0-9a-f]{40}) /.exec(lines[0] ?? '')?.[1];
  if (!sha || /^0+$/.test(sha)) return undefined;
  const field = (key: string) => lines.find((l) => l.startsWith(`${key} `))?.slice(key.length + 1);
  const time = Number(field('author-time'));
  return {
    sha,
    author: field('author') ?? '',
    date: Number.isFinite(time) ? new Date(time * 1000).toISOString() : '',
    subject: field('summary') ?? '',
    path: field('filename') ?? '',
  };
}

export async function blameFunction(git: GitRunner, rev: string, path: string, fn: string): Promise<BlameHit | undefined> {
  assertRepoRelativePath(path);
  const name = fn.replace(/^.*[.#:]/, '');
  if (!FUNCTION_NAME.test(name)) return undefined;
  // git finds the function by its funcname heuristics; an unknown name is an error, not a miss worth reporting.
  const out = await git.run(['log', '--no-textconv', `-L:${name}:${path}`, '--max-count=1', '--no-patch', `--format=%H${FIELD}%an${FIELD}%aI${FIELD}%s`, rev]).catch(() => undefined);
  const [sha = '', author = '', date = '', subject = ''] = (out ?? '').trim().split('\n')[0]?.split(FIELD) ?? [];
  return SHA.test(sha) ? { sha, author, date: new Date(date).toISOString(), subject, path } : undefined;
}

export async function commitFileChange(git: GitRunner, sha: string, path: string): Promise<CommitFileChange | undefined> {
  assertCommitSha(sha);
  assertRepoRelativePath(path);
  const show = (spec: string) => git.run(['show', spec]).catch(() => undefined);
  const after = await show(`${sha}:${path}`);
  const message = await git.run(['log', '-1', '--format=%B', sha]).catch(() => undefined);
  const parents = (await git.run(['rev-list', '--parents', '-n', '1', sha])).trim().split(' ').slice(1);
  const parent = parents[0];
  if (!parent) return { sha, path, pathBefore: path, after, files: [path], ...(message === undefined ? {} : { message }) };
  // The file may have been renamed by this very commit.
  const status = await git.run(['diff-tree', '-r', '-M', '--name-status', '-z', parent, sha]);
  const parts = status.split('\0');
  let pathBefore = path;
  const files: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const kind = parts[i] ?? '';
    if (!/^[ACDMRTUX]\d*$/.test(kind)) continue;
    const renamed = /^[RC]/.test(kind);
    if (renamed && parts[i + 2] === path) pathBefore = parts[i + 1] ?? path;
    files.push((renamed ? parts[i + 2] : parts[i + 1]) ?? '');
    i += renamed ? 2 : 1;
  }
  return { sha, path, pathBefore, before: await show(`${parent}:${pathBefore}`), after, files: files.filter(Boolean), ...(message === undefined ? {} : { message }) };
}
