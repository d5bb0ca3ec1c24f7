#!/usr/bin/env node
/** `medic <command> …` (package.json `bin`; `node dist/cli/medic.js`, `npx medic`): Medic's command-line tool. */
import { runCli } from './run-cli.js';

const code = await runCli(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });
process.exitCode = code;
