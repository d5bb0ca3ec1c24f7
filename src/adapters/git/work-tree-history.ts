/**
 * History reads on a git work tree Medic does not own (the directory `medic locate` searches):
 * blame and function blame of its HEAD, and a file as HEAD has it (what the blamed line numbers
 * refer to), nothing else. Read-only, never the work tree's files, so no filter or hook configured
 * in that repository runs.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { assertRepoRelativePath } from '../../code-search/safe-read.js';
import type { CodeRepository } from '../../ports/code.js';
import { blameFunction, blameLine } from './git-history.js';
import { createGitRunner } from './git-runner.js';

export type HistoryReads = Pick<CodeRepository, 'blame' | 'blameFunction' | 'readFile'>;

/** Blame over `dir`'s HEAD, or undefined when `dir` is not the top of a git work tree. */
export function createWorkTreeHistory(dir: string): HistoryReads | undefined {
  const root = resolve(dir);
  if (!existsSync(join(root, '.git'))) return undefined;
  const git = createGitRunner({ workDir: root, remoteUrl: root });
  return {
    blame: (path, line) => blameLine(git, 'HEAD', path, line),
    blameFunction: (path, fn) => blameFunction(git, 'HEAD', path, fn),
    async readFile(path) {
      assertRepoRelativePath(path);
      return git.run(['show', '--no-textconv', `HEAD:${path}`]).catch(() => undefined);
    },
  };
}
