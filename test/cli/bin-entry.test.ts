import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/medic-world.js';

const run = promisify(execFile);

/** The package's `bin` entry, installed the way `npm install -g .` (or `npm link`) installs it. */
describe('medic as an installed command', () => {
  let prefix: string;
  beforeAll(async () => {
    prefix = await mkdtemp(join(tmpdir(), 'medic-global-'));
    // dist/ is built by the global setup; --ignore-scripts keeps npm from building it again.
    await run('npm', ['install', '--global', '--prefix', prefix, '--ignore-scripts', '--no-audit', '--no-fund', '--offline', ROOT], { cwd: prefix });
  }, 60_000);
  afterAll(async () => {
    await rm(prefix, { recursive: true, force: true });
  });

  it('package.json names the compiled CLI, which starts with a hashbang and is executable', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(pkg.bin).toEqual({ medic: 'dist/cli/medic.js' });
    const entry = join(ROOT, pkg.bin.medic!);
    expect((await readFile(entry, 'utf8')).split('\n')[0]).toBe('#!/usr/bin/env node');
    expect((await stat(entry)).mode & 0o111).not.toBe(0);
  });

  it('runs from the PATH in any directory, reading standard input', async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), 'medic-cwd-'));
    try {
      const lines = join(elsewhere, 'lines.txt');
      await writeFile(lines, 'Connection to 10.0.0.1 timed out after 30s\nConnection to 10.0.0.9 timed out after 12s\n');
      const env = { ...process.env, PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}` };
      const { stdout } = await run('medic', ['templates', lines], { cwd: elsewhere, env });
      const templates = stdout.trim().split('\n').map((l) => (JSON.parse(l) as { template: string }).template);
      expect(templates).toEqual(['Connection to <*> timed out after <*>', 'Connection to <*> timed out after <*>']);
      const help = await run('medic', ['--help'], { cwd: elsewhere, env });
      expect(help.stdout.split('\n')[0]).toBe('usage: medic <command> [--help]');
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('an unknown command names itself on the first line and exits 2', async () => {
    const env = { ...process.env, PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}` };
    const failed = await run('medic', ['frobnicate'], { cwd: prefix, env }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in failed && failed.code).toBe(2);
    expect((failed as { stderr: string }).stderr.split('\n')[0]).toBe('medic: unknown command "frobnicate"');
  });
});
