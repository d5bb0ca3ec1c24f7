import { PassThrough, Readable } from 'node:stream';
import type { CliIo } from '../../src/cli/command.js';
import { runCli } from '../../src/cli/run-cli.js';

/** A CliIo whose output is captured, for driving commands in-process. */
export function buildCliIo(options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}): CliIo & { out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  return { stdin: Readable.from([options.stdin ?? '']), stdout, stderr, env: options.env ?? {}, out: () => out, err: () => err };
}

/** Runs one command in-process with `env`, returning its exit code and captured output. */
export async function runCliWith(env: Record<string, string>, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = buildCliIo({ env });
  const code = await runCli(argv, io);
  return { code, out: io.out(), err: io.err() };
}
