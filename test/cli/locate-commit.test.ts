import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { locateCommand } from '../../src/cli/commands/locate.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function locate(dir: string, stdin: string): Promise<Record<string, unknown>[]> {
  let out = '';
  const sink = new Writable({ write(chunk, _enc, done) { out += String(chunk); done(); } });
  const code = await locateCommand.run([dir], { stdin: Readable.from([stdin]), stdout: sink, stderr: sink, env: {} });
  expect(code).toBe(0);
  return out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

function service(git: boolean): { dir: string; sha?: string } {
  const dir = mkdtempSync(join(tmpdir(), 'medic-locate-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'src/orders'), { recursive: true });
  writeFileSync(join(dir, 'src/orders/pager.ts'), 'export function page(i: number) {\n  if (i < 0) throw new RangeError(`page ${i}`);\n  return i;\n}\n');
  writeFileSync(join(dir, 'src/orders/list.ts'), "import { page } from './pager.js';\nexport const list = () => page(-1);\n");
  if (!git) return { dir };
  const run = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Ana', '-c', 'user.email=ana@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' });
  run('init', '--quiet', '--initial-branch=main');
  run('add', '-A');
  run('commit', '--quiet', '-m', 'orders: paging');
  return { dir, sha: run('rev-parse', 'HEAD').trim() };
}

const TRACE = 'RangeError: page -1\n    at page (/srv/app/src/orders/pager.ts:2:19)\n    at list (/srv/app/src/orders/list.ts:2:26)\n';

describe('locate prints the suspect commit per file', () => {
  it('adds "commit" — the last change to the failing line — in a git work tree', async () => {
    const { dir, sha } = service(true);
    const lines = await locate(dir, TRACE);
    expect(lines.map((l) => l.file)).toEqual(['src/orders/pager.ts', 'src/orders/list.ts']);
    expect(lines.every((l) => l.commit === sha)).toBe(true);
    expect(Object.keys(lines[0]!)).toEqual(['file', 'score', 'commit']);
  });

  it('keeps the {"file","score"} contract where there is no history', async () => {
    const lines = await locate(service(false).dir, TRACE);
    expect(lines[0]).toEqual({ file: 'src/orders/pager.ts', score: expect.any(Number) });
  });
});
