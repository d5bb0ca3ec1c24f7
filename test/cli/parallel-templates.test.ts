import { execFile, spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLoghub } from '../../bench/loghub.js';
import { runCliWith } from '../support/cli-io.js';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** Lines of many shapes, enough of them (past the inline threshold, many reads) for the compiled CLI to mask on worker threads. */
function floodLines(count: number): string[] {
  const users = ['oracle', 'admin', 'postgres', 'test', 'guest', 'ubuntu', 'git', 'deploy'];
  const shapes = [
    (i: number) => `Invalid user ${users[i % users.length]} from 10.0.${i % 256}.${(i * 7) % 256}`,
    (i: number) => `Received block blk_${i * 7919} of size ${i % 5000} from /10.251.${i % 200}.${i % 97}:50010`,
    (i: number) => `job com.vendor.sync.${users[i % 3]} finished in ${i % 900}ms`,
    (i: number) => `GET /api/v1/orders/${i} returned 500 after ${i % 30}s`,
    (i: number) => `DELETE /api/v1/orders/${i} returned 404`,
    (i: number) => `session ${(i * 2654435761).toString(16)} closed by peer api-${i % 4}.example.com:443`,
    (i: number) => `Worker ${i % 12} Started`,
    (i: number) => `Worker ${i % 12} Stopped`,
    (i: number) => `\u0007 odd\tbytes ${'x'.repeat(i % 40)} ${i}`,
    () => '',
  ];
  return Array.from({ length: count }, (_, i) => (shapes[(i * 31) % shapes.length] as (i: number) => string)(i));
}

describe('templates over a long input', () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'medic-templates-parallel-'));
    file = join(dir, 'flood.txt');
    await writeFile(file, `${floodLines(120_000).join('\n')}\n`);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('prints exactly what mining on one thread prints, line for line, when the compiled command masks on worker threads', async () => {
    const compiled = await run(process.execPath, [join(ROOT, 'dist/cli/medic.js'), 'templates', file], { maxBuffer: 64 << 20 });
    const oneThread = await runCliWith({}, 'templates', file);
    expect(oneThread.code).toBe(0);
    const lines = compiled.stdout.split('\n');
    expect(lines).toHaveLength(120_001);
    expect(compiled.stdout).toBe(oneThread.out);
    const groups = new Set(lines.filter(Boolean).map((l) => (JSON.parse(l) as { group: string }).group));
    expect(groups.size).toBeGreaterThan(5);
    expect(groups.size).toBeLessThan(40);
  }, 60_000);

  it('prints the same from standard input, where workers start only once enough lines have come', async () => {
    const fromFile = await run(process.execPath, [join(ROOT, 'dist/cli/medic.js'), 'templates', file], { maxBuffer: 64 << 20 });
    const fromStdin = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [join(ROOT, 'dist/cli/medic.js'), 'templates', '-'], { stdio: ['pipe', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      child.once('error', reject);
      child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exited ${code}`))));
      createReadStream(file).pipe(child.stdin);
    });
    expect(fromStdin).toBe(fromFile.stdout);
  }, 60_000);
});

describe('templates over the Loghub samples, three times over', () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'medic-templates-loghub-'));
    file = join(dir, 'loghub.txt');
    const once = (await loadLoghub()).flatMap((s) => s.rows.map((r) => r.content.replace(/[\r\n]+/g, ' ')));
    await writeFile(file, `${[...once, ...once, ...once].join('\n')}\n`);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('groups every line as one thread masking every line itself does, repeats remembered by the workers included', async () => {
    const compiled = await run(process.execPath, [join(ROOT, 'dist/cli/medic.js'), 'templates', file], { maxBuffer: 64 << 20 });
    const oneThread = await runCliWith({}, 'templates', file);
    expect(oneThread.code).toBe(0);
    expect(compiled.stdout.split('\n')).toHaveLength(60_001);
    expect(compiled.stdout).toBe(oneThread.out);
  }, 120_000);
});

