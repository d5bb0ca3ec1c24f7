import type { Config } from '../config/schema.js';
import type { Medic } from '../app/create-medic.js';
import { startRuntime } from '../app/start-runtime.js';
import { describeError } from '../app/describe-error.js';
import type { CliIo } from './command.js';

export interface BootedMedic {
  medic: Medic;
  config: Config;
  redisUrl: string;
  embeddedRedis: boolean;
}

/** Runs `fn` against a Medic built from the environment (no workers), and always shuts it down. */
export type BootMedic = (io: CliIo, fn: (booted: BootedMedic) => Promise<number>, options?: { prepare?: boolean }) => Promise<number>;

export const bootMedic: BootMedic = async (io, fn, options = {}) => {
  let runtime;
  try {
    runtime = await startRuntime(io.env, { role: 'cli', logLevel: 'warn', logDestination: io.stderr, chatOut: io.stdout });
    if (options.prepare) await runtime.adapters.prepare?.();
    return await fn({ medic: runtime.medic, config: runtime.config, redisUrl: runtime.redisUrl, embeddedRedis: runtime.embeddedRedis });
  } catch (error) {
    io.stderr.write(`${describeError(error)}\n`);
    return 1;
  } finally {
    await runtime?.close();
  }
};
