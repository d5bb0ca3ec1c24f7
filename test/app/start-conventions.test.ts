/** `npm start` and the CLI follow the conventions of command-line programs: help, unknown flags, taken ports. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeError } from '../../src/app/describe-error.js';
import { listenOrExplain } from '../../src/app/port-in-use.js';
import { readStartArgs } from '../../src/app/start-args.js';
import { runCliWith } from '../support/cli-io.js';
import { createOpsRoutes } from '../../src/http/ops-routes.js';
import { startHttpServer } from '../../src/http/start-http-server.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { ROOT } from '../support/medic-world.js';

const run = promisify(execFile);
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function cli(...argv: string[]) {
  const { code, out, err } = await runCliWith({}, ...argv);
  return { code, stdout: out, stderr: err };
}

describe('npm start arguments', () => {
  it('reads --help, the role and --exit-with-parent; the parent watch is off unless asked', () => {
    expect(readStartArgs(['--help'])).toEqual({ help: true });
    expect(readStartArgs([])).toEqual({ role: 'all', verbose: false, exitWithParent: false });
    expect(readStartArgs(['--role', 'web', '--exit-with-parent'])).toEqual({ role: 'web', verbose: false, exitWithParent: true });
  });

  it('names an unknown flag, a bad role and a stray argument in one line', () => {
    expect(readStartArgs(['--bogus'])).toEqual({ error: 'unknown option --bogus' });
    expect(readStartArgs(['--role', 'chef'])).toEqual({ error: 'unknown role "chef": use --role all, web or worker' });
    expect(readStartArgs(['--role'])).toEqual({ error: 'option --role needs a value' });
    expect(readStartArgs(['serve'])).toEqual({ error: 'unexpected argument "serve"' });
  });

  it('`--help` prints the options and exits 0 without starting anything; an unknown flag exits 2 naming it', async () => {
    const main = join(ROOT, 'src/main.ts');
    const help = await run(process.execPath, ['--import', 'tsx', main, '--help'], { cwd: ROOT, env: { ...process.env, PORT: '1' } });
    expect(help.stdout).toContain('Usage: npm start -- [--role all|web|worker]');
    expect(help.stdout).toContain('--exit-with-parent');
    const bad = await run(process.execPath, ['--import', 'tsx', main, '--bogus'], { cwd: ROOT }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in bad ? bad.code : 0).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe('medic: unknown option --bogus');
  }, 30_000);
});

describe('a port in use', () => {
  it('says which variable to set and that another Medic answers there', async () => {
    const first = await startHttpServer(0, [createOpsRoutes({ registry: createMetrics({ defaultMetrics: false }).registry, ready: async () => [] })]);
    closers.push(() => first.close());
    const health = (await (await fetch(`http://127.0.0.1:${first.port}/healthz`)).json()) as { service: string };
    expect(health.service).toBe('medic');
    const second = listenOrExplain(() => startHttpServer(first.port, []), { host: '127.0.0.1', port: first.port, variable: 'PORT' });
    await expect(second).rejects.toThrow(`port ${first.port} on 127.0.0.1 is in use: another Medic is already running there (stop it first, or set PORT to a free port; 0 picks one).`);
  });

  it('says when what holds the port is not Medic, naming the sandbox variable', async () => {
    const other = await startHttpServer(0, []);
    closers.push(() => other.close());
    const second = listenOrExplain(() => startHttpServer(other.port, []), { host: '127.0.0.1', port: other.port, variable: 'MEDIC_SANDBOX_PORT' });
    await expect(second).rejects.toThrow(/another program listens there .*set MEDIC_SANDBOX_PORT to a free port/);
  });
});

describe('CLI errors', () => {
  it('an unknown command is named on the first line of standard error, exit 2', async () => {
    const result = await cli('frobnicate');
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('medic: unknown command "frobnicate"');
    expect(result.stdout).toBe('');
    expect((await cli('help')).code).toBe(0);
  });

  it('an unknown flag is named in one line, without parseArgs\' advice', async () => {
    const result = await cli('templates', '--bogus');
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('medic templates: unknown option --bogus');
    expect(result.stderr).not.toContain('positional');
  });

  it('a schema error is one line naming the field', () => {
    const parsed = z.object({ incident: z.object({ id: z.string() }) }).safeParse({ incident: { id: 7 } });
    const line = describeError(parsed.error);
    expect(line).not.toContain('\n');
    expect(line).toMatch(/^invalid incident\.id: /);
  });
});
