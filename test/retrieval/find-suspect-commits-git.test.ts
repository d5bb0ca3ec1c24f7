/**
 * Suspect commits on real repositories built here with the git CLI, read the way `medic locate`
 * reads a work tree: the failing line's own blame, re-anchored on the trace's source text, through
 * re-indents, never a runtime-made frame, never a commit newer than the error.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkTreeHistory } from '../../src/adapters/git/work-tree-history.js';
import { findSuspectCommitsIn } from '../../src/retrieval/find-suspect-commits.js';
import { gitIn } from '../git/build-remote.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function workTree() {
  const dir = mkdtempSync(join(tmpdir(), 'medic-suspects-'));
  dirs.push(dir);
  gitIn(dir, 'init', '--quiet', '--initial-branch=main');
  return {
    dir,
    /** Writes the files and commits them with the given author date; returns the commit. */
    commit(files: Record<string, string>, message: string, date: string): string {
      for (const [file, content] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), content);
      }
      gitIn(dir, 'add', '-A');
      gitIn(dir, 'commit', '--quiet', '-m', message, `--date=${date}`);
      return gitIn(dir, 'rev-parse', 'HEAD').trim();
    },
  };
}

async function suspectsOf(dir: string, text: string, time = '2026-12-01T00:00:00Z') {
  const history = createWorkTreeHistory(dir)!;
  const files = gitIn(dir, 'ls-files').trim().split('\n');
  return findSuspectCommitsIn({ listFiles: async () => files, ...history }, { text, time, frames: 5 });
}

const PY_V1 = ['def total(items):', '    s = 0', '    for i in items:', '        s += i.price', '    return s', ''].join('\n');

describe('suspect commits on a real work tree', () => {
  it("names the failing line's commit first; a newer comment-only edit of its function comes after, as evidence", async () => {
    const repo = workTree();
    repo.commit({ 'shop/cart.py': PY_V1 }, 'cart: totals', '2026-10-01T00:00:00Z');
    const culprit = repo.commit({ 'shop/cart.py': PY_V1.replace('s += i.price', 's += i.price * i.qty') }, 'cart: count quantities', '2026-11-01T00:00:00Z');
    const comment = repo.commit({ 'shop/cart.py': PY_V1.replace('s += i.price', 's += i.price * i.qty').replace('    s = 0', '    # the running sum\n    s = 0') }, 'cart: explain', '2026-11-20T00:00:00Z');
    const trace = ['Traceback (most recent call last):', '  File "/srv/shop/cart.py", line 5, in total', '    s += i.price * i.qty', "AttributeError: 'dict' object has no attribute 'price'"].join('\n');
    const suspects = await suspectsOf(repo.dir, trace);
    expect(suspects.map((s) => [s.sha, s.line, s.function])).toEqual([
      [culprit, 5, undefined],
      [comment, 5, 'total'],
    ]);
  });

  it('re-anchors a drifted line number on the source text the traceback prints', async () => {
    const repo = workTree();
    repo.commit({ 'shop/cart.py': PY_V1 }, 'cart: totals', '2026-10-01T00:00:00Z');
    const culprit = repo.commit({ 'shop/cart.py': PY_V1.replace('s += i.price', 's += i.price * i.qty') }, 'cart: count quantities', '2026-11-01T00:00:00Z');
    // Three lines above the function since the build that crashed: its line 4 is now line 7.
    repo.commit({ 'shop/cart.py': `import logging\n\nlog = logging.getLogger(__name__)\n${PY_V1.replace('s += i.price', 's += i.price * i.qty')}` }, 'cart: a logger', '2026-11-10T00:00:00Z');
    const trace = ['Traceback (most recent call last):', '  File "/srv/shop/cart.py", line 4, in total', '    s += i.price * i.qty', "AttributeError: 'dict' object has no attribute 'price'"].join('\n');
    const suspects = await suspectsOf(repo.dir, trace);
    expect(suspects[0]).toMatchObject({ sha: culprit, line: 7 });
    // Without the text the number stands: line 4 is the logger's blank line now.
    expect((await suspectsOf(repo.dir, trace.replace('    s += i.price * i.qty\n', '')))[0]?.line).toBe(4);
  });

  it('looks through commits that only re-indent or move the line', async () => {
    const repo = workTree();
    const culprit = repo.commit({ 'src/pager.js': 'export function page(i) {\n  if (i < 0) throw new RangeError(`page ${i}`);\n  return i;\n}\n' }, 'pager: reject negative pages', '2026-10-01T00:00:00Z');
    const indent = repo.commit({ 'src/pager.js': 'export function page(i) {\n    if (i < 0) throw new RangeError(`page ${i}`);\n    return i;\n}\n' }, 'style: four-space indent', '2026-11-01T00:00:00Z');
    repo.commit({ 'src/pager.js': 'export const PAGE = 20;\n\nexport function page(i) {\n    if (i < 0) throw new RangeError(`page ${i}`);\n    return i;\n}\n' }, 'pager: a page size', '2026-11-02T00:00:00Z');
    const suspects = await suspectsOf(repo.dir, 'RangeError: page -1\n    at page (/srv/app/src/pager.js:4:21)\n');
    expect(suspects[0]).toMatchObject({ sha: culprit, line: 4 });
    // The function's history (git log -L) does see the re-indent: it stays evidence, never the line's suspect.
    expect(suspects.filter((s) => s.sha === indent).every((s) => s.function === 'page')).toBe(true);
  });

  it("gives Go's compiler-made package initializer no line: the frame above it is blamed", async () => {
    const repo = workTree();
    const source = ['package config', '', 'var settings = mustLoad()', '', 'func mustLoad() map[string]string {', '\tpanic("no config")', '}', ''].join('\n');
    const sha = repo.commit({ 'config/config.go': source, 'go.mod': 'module example.com/app\n' }, 'config: load at start', '2026-10-01T00:00:00Z');
    repo.commit({ 'config/config.go': source.replace('var settings = mustLoad()', 'var settings map[string]string = mustLoad()') }, 'config: spell the type', '2026-11-01T00:00:00Z');
    const trace = ['panic: no config', '', 'goroutine 1 [running]:', 'example.com/app/config.mustLoad(...)', '\t/src/app/config/config.go:6', 'example.com/app/config.init()', '\t/src/app/config/config.go:3 +0x1d'].join('\n');
    const suspects = await suspectsOf(repo.dir, trace);
    expect(suspects.filter((s) => !s.function).map((s) => [s.sha, s.line])).toEqual([[sha, 6]]);
  });

  it('names no commit dated after the first event', async () => {
    const repo = workTree();
    const old = repo.commit({ 'src/pager.js': 'export function page(i) {\n  return i;\n}\n' }, 'pager', '2026-10-01T00:00:00Z');
    repo.commit({ 'src/pager.js': 'export function page(i) {\n  return i.n;\n}\n' }, 'pager: objects', '2026-11-20T00:00:00Z');
    const trace = 'TypeError: x\n    at page (/srv/app/src/pager.js:2:3)\n';
    expect((await suspectsOf(repo.dir, trace, '2026-11-10T00:00:00Z')).map((s) => s.sha)).toEqual([]);
    expect((await suspectsOf(repo.dir, trace, '2026-11-30T00:00:00Z')).map((s) => s.sha)).not.toContain(old);
  });
});
