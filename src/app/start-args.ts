import { parseArgs } from 'node:util';
import { describeArgsError } from './describe-error.js';

export type Role = 'all' | 'web' | 'worker';

export interface StartArgs {
  role: Role;
  verbose: boolean;
  /** Stop when the process that started Medic exits (a test harness, a shell job that must not outlive it). */
  exitWithParent: boolean;
}

export const START_HELP = [
  'Usage: npm start -- [--role all|web|worker] [--verbose] [--exit-with-parent]',
  '',
  '  --role all|web|worker  which part of Medic runs here (default all: web and worker in one process)',
  '  --verbose              print whole cards in the terminal, not one line per card event',
  '  --exit-with-parent     stop when the process that started Medic exits (otherwise only a signal stops it,',
  '                         so `nohup`, `setsid` and service managers keep it running)',
  '  -h, --help             this message',
  '',
  'Configuration comes from environment variables and .env (see .env.example); `npm run medic -- doctor` checks it.',
].join('\n');

/** `npm start`'s arguments: the parsed options, `help`, or one line saying what was wrong. */
export function readStartArgs(argv: readonly string[]): StartArgs | { help: true } | { error: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { role: { type: 'string' }, verbose: { type: 'boolean' }, 'exit-with-parent': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: false,
      strict: true,
    }));
  } catch (error) {
    return { error: describeArgsError(error) };
  }
  if (values.help === true) return { help: true };
  const role = values.role ?? 'all';
  if (role !== 'all' && role !== 'web' && role !== 'worker') return { error: `unknown role "${role}": use --role all, web or worker` };
  return { role, verbose: values.verbose === true, exitWithParent: values['exit-with-parent'] === true };
}
