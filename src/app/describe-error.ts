import { ZodError } from 'zod';
import { isMedicError } from '../domain/errors.js';

const QUOTED = /'([^']*)'/;

/**
 * node:util parseArgs' error as one line naming the argument: its own messages go on to advise
 * about `--` and positionals, which reads as if the advice were the problem.
 */
export function describeArgsError(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const named = QUOTED.exec(message)?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${named}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument "${named}"`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return message.includes('argument missing') ? `option ${named.split(' ')[0] ?? named} needs a value` : `option ${named.split(' ')[0] ?? named} takes no value`;
    default:
      return message.split('\n', 1)[0] ?? message;
  }
}

/** A schema's complaints as one line: where, and what was wrong there. */
export function describeZodError(error: ZodError): string {
  const issues = error.issues.slice(0, 5).map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'input'}: ${issue.message}`);
  const more = error.issues.length > 5 ? ` (+${error.issues.length - 5} more)` : '';
  return `invalid ${issues.join('; ')}${more}`;
}

/**
 * What a command-line tool or `npm start` prints for an error: its code and its message. A
 * coded error's message says what to do (a bad configuration lists every variable, one a line);
 * a schema error is folded into one line; anything else keeps its first line.
 */
export function describeError(error: unknown): string {
  if (error instanceof ZodError) return describeZodError(error);
  if (isMedicError(error)) return `${error.code}: ${error.cause instanceof ZodError ? `${error.message} (${describeZodError(error.cause)})` : error.message}`;
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  return `${typeof code === 'string' ? `${code}: ` : ''}${message.split('\n', 1)[0] ?? message}`;
}
