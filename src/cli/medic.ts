/** `npm run medic -- <command> …`: Medic's command-line tool. */
import { runCli } from './run-cli.js';

const code = await runCli(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });
process.exitCode = code;
