import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { buildCliIo } from '../support/cli-io.js';
import { ROOT } from '../support/medic-world.js';

const run = promisify(execFile);
const HEAVY = ['@slack/bolt', 'bullmq', 'openai', 'ioredis'];
const COMMANDS = ['doctor', 'incidents', 'show', 'approve', 'reject', 'replay', 'templates', 'locate', 'docs', 'audit', 'catalog', 'postmortem'];

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Runs the compiled CLI (dist/, built by the global setup) and lists every module it loaded. */
async function compiledCli(args: string[], stdin?: string): Promise<{ stdout: string; modules: string[] }> {
  dir = await mkdtemp(join(tmpdir(), 'medic-imports-'));
  const record = join(dir, 'imports.txt');
  const child = run(process.execPath, ['--import', join(ROOT, 'test/support/record-imports.mjs'), join(ROOT, 'dist/cli/medic.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, MEDIC_RECORD_IMPORTS: record },
  });
  if (stdin !== undefined) child.child.stdin?.end(stdin);
  const { stdout } = await child;
  return { stdout, modules: (await readFile(record, 'utf8')).split('\n').filter(Boolean) };
}

function packagesIn(modules: string[]): string[] {
  return HEAVY.filter((name) => modules.some((url) => url.includes(`/node_modules/${name}/`)));
}

describe('the compiled command line loads only what a command needs', () => {
  it('templates runs the miner without Bolt, BullMQ, OpenAI or Redis', async () => {
    const lines = join(await mkdtemp(join(tmpdir(), 'medic-lines-')), 'lines.txt');
    await writeFile(lines, 'Connection to 10.0.0.1 timed out after 30s\nConnection to 10.0.0.7 timed out after 31s\n');
    const { stdout, modules } = await compiledCli(['templates', lines]);
    await rm(join(lines, '..'), { recursive: true, force: true });
    expect(stdout.trim().split('\n').map((l) => JSON.parse(l).template)).toEqual(['Connection to <*> timed out after <*>', 'Connection to <*> timed out after <*>']);
    expect(modules.some((url) => url.endsWith('/dist/cli/medic.js'))).toBe(true);
    expect(packagesIn(modules)).toEqual([]);
  });

  it('locate ranks files without Bolt, BullMQ, OpenAI or Redis', async () => {
    const trace = "TypeError: Cannot read properties of undefined (reading 'perItem')\n    at perItem (/srv/app/src/checkout/discounts.ts:3:10)\n";
    const { stdout, modules } = await compiledCli(['locate', join(ROOT, 'data/sample-service')], trace);
    expect(JSON.parse(stdout.split('\n')[0]!)).toMatchObject({ file: 'src/checkout/discounts.ts' });
    expect(packagesIn(modules)).toEqual([]);
  });

  it('catalog validate reads the catalog without Bolt, BullMQ, OpenAI or Redis', async () => {
    const { stdout, modules } = await compiledCli(['catalog', 'validate']);
    expect(stdout).toMatch(/^ok: 2 service\(s\), 2 repositories/);
    expect(packagesIn(modules)).toEqual([]);
  });

  it('the recorder does see the heavy packages when a command boots the runtime', async () => {
    dir = await mkdtemp(join(tmpdir(), 'medic-imports-'));
    // `doctor` on a configuration that fails validation still loads the runtime before it reports.
    const record = join(dir, 'imports.txt');
    await run(process.execPath, ['--import', join(ROOT, 'test/support/record-imports.mjs'), join(ROOT, 'dist/cli/medic.js'), 'doctor'], {
      cwd: ROOT,
      env: { ...process.env, MEDIC_RECORD_IMPORTS: record, MEDIC_REDIS_PREFIX: 'not valid' },
    }).catch(() => undefined);
    expect(packagesIn((await readFile(record, 'utf8')).split('\n'))).toEqual(HEAVY);
  });
});

describe('every command answers --help', () => {
  it.each(COMMANDS)('%s --help prints its usage and exits 0', async (name) => {
    const io = buildCliIo();
    expect(await runCli([name, '--help'], io)).toBe(0);
    expect(io.out()).toMatch(new RegExp(`^usage: medic ${name}\\b`));
    expect(io.err()).toBe('');
  });

  it('a bad option is a usage error, not a crash', async () => {
    const io = buildCliIo();
    expect(await runCli(['audit', '--bogus'], io)).toBe(2);
    expect(io.err().split('\n')[0]).toBe('medic audit: unknown option --bogus');
    expect(io.err()).toContain('usage: medic audit');
  });

  it('help lists every command', async () => {
    const io = buildCliIo();
    expect(await runCli(['help'], io)).toBe(0);
    for (const name of COMMANDS) expect(io.out()).toContain(`  ${name}`);
  });
});
