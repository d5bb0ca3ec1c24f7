/**
 * Medic's entry point: `npm start` runs the web and worker roles in one process; `--role web` or
 * `--role worker` runs one of them, so they can scale apart on one Redis. `--help` lists the options.
 */
import { startRuntime } from './app/start-runtime.js';
import { startWebRole } from './app/start-web-role.js';
import { readStarters, watchParent } from './app/watch-parent.js';
import { describeError } from './app/describe-error.js';
import { START_HELP, readStartArgs } from './app/start-args.js';

// Read before anything async: `kill <npm pid>` during start-up must still stop Medic once it is up.
const starters = readStarters();

async function main(): Promise<void> {
  const args = readStartArgs(process.argv.slice(2));
  if ('help' in args) {
    process.stdout.write(`${START_HELP}\n`);
    return;
  }
  if ('error' in args) {
    process.stderr.write(`medic: ${args.error}\n${START_HELP.split('\n', 1)[0]}\n`);
    process.exit(2);
  }
  const { role } = args;
  const runtime = await startRuntime(process.env, { role, verboseChat: args.verbose });
  const { logger, medic } = runtime;
  const stops: (() => Promise<void>)[] = [];
  if (role !== 'worker') stops.push(await startWebRole(runtime));
  if (role !== 'web') await medic.startWorkers();
  logger.info({ role }, 'medic is running');

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), runtime.config.MEDIC_SHUTDOWN_TIMEOUT_MS + 5_000);
    force.unref();
    void (async () => {
      for (const stop of stops) await stop().catch(() => undefined);
      await runtime.close();
      process.exit(0);
    })();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGHUP', () => shutdown('SIGHUP'));
  // Only when asked: under `nohup`, `setsid` or a service manager the starter exits on purpose.
  if (args.exitWithParent) watchParent(() => shutdown('parent exited'), { starters });
}

main().catch((error: unknown) => {
  process.stderr.write(`${describeError(error)}\n`);
  process.exit(1);
});
