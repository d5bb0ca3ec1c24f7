import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CliIo } from './command.js';
import { describeArgsError } from '../app/describe-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type Strict<O extends Options> = { args: string[]; options: O; allowPositionals: true; strict: true };
export type ParsedArgs<O extends Options> = ReturnType<typeof parseArgs<Strict<O>>>;

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * Parses one command's arguments with `node:util` parseArgs (strict: unknown options and missing
 * values are errors). Returns the parsed arguments, or the exit code once `--help` (0) or a usage
 * error (2) has been written, so every command answers `--help` the same way.
 */
export function readArgs<O extends Options>(
  args: string[],
  io: CliIo,
  command: { name: string; usage: string; summary: string },
  options: O,
): ParsedArgs<O> | number {
  const parsed = tryParse(args, options);
  if (typeof parsed === 'string') {
    io.stderr.write(`medic ${command.name}: ${parsed}\nusage: medic ${command.usage}\n`);
    return 2;
  }
  if ((parsed.values as { help?: boolean }).help === true) {
    io.stdout.write(`usage: medic ${command.usage}\n  ${command.summary}\n`);
    return 0;
  }
  return parsed;
}

/** The parse alone: the arguments, or parseArgs' own message saying what is wrong. */
export function tryParse<O extends Options>(args: string[], options: O): ParsedArgs<O & typeof HELP> | string {
  try {
    return parseArgs<Strict<O & typeof HELP>>({ args, options: { ...options, ...HELP }, allowPositionals: true, strict: true });
  } catch (error) {
    return describeArgsError(error);
  }
}
