import { PassThrough, Readable } from 'node:stream';
import type { CliIo } from '../../src/cli/command.js';

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
