import type { Writable } from 'node:stream';

export interface CliIo {
  stdin: NodeJS.ReadableStream;
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
}

/** One `medic <name> …` command. `run` returns the process exit code. */
export interface CliCommand {
  name: string;
  usage: string;
  summary: string;
  run(args: string[], io: CliIo): Promise<number>;
}
