/**
 * Medic's entry point: `npm start` runs the web and worker roles in one process; `--role web` or
 * `--role worker` runs one of them, so they can scale apart on one Redis.
 */
import { startRuntime } from './app/start-runtime.js';
import { startWebRole } from './app/start-web-role.js';
import { readStarters, watchParent } from './app/watch-parent.js';
import { isMedicError } from './domain/errors.js';

type Role = 'all' | 'web' | 'worker';

// Read before anything async: `kill <npm pid>` during start-up must still stop Medic once it is up.
const starters = readStarters();

function parseRole(argv: string[]): Role {
  const i = argv.indexOf('--role');
  const value = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--role='))?.slice('--role='.length);
  if (value === undefined) return 'all';
  if (value === 'all' || value === 'web' || value === 'worker') return value;
  process.stderr.write(`Unknown role "${value}": use --role all, web or worker.\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const role = parseRole(process.argv.slice(2));
  const runtime = await startRuntime(process.env, { role, verboseChat: process.argv.includes('--verbose') });
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
  watchParent(() => shutdown('parent exited'), { starters });
}

main().catch((error: unknown) => {
  process.stderr.write(`${isMedicError(error) ? `${error.code}: ` : ''}${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
