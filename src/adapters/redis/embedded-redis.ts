import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { RedisTarget } from '../../config/sections/redis.js';
import { describeRedisTarget, isRedisReachable } from './connect.js';

export interface EmbeddedRedis {
  url: string;
  stop(): Promise<void>;
}

const INSTALL_HINT =
  'No Redis answers on 127.0.0.1:6379 and redis-server is not on PATH. Install one ' +
  '(`apt-get install redis-server` or `brew install redis`), run `docker compose up redis`, or set REDIS_URL.';

/** A port the kernel just handed out on loopback (bound to 0, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts a private redis-server with its data under the data directory: AOF on (a restart loses
 * no incident) and `noeviction` (BullMQ's only correct policy). Stopped when Medic exits.
 */
export async function startEmbeddedRedis(dataDir: string): Promise<EmbeddedRedis> {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).error) {
    throw new MedicError(ErrorCode.UpstreamUnavailable, INSTALL_HINT);
  }
  const dir = resolve(dataDir, 'redis');
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'everysec',
      '--maxmemory-policy', 'noeviction', '--save', '', '--daemonize', 'no', '--loglevel', 'warning'],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    if (await isRedisReachable(url, 200)) break;
    if (child.exitCode !== null) throw new MedicError(ErrorCode.UpstreamUnavailable, `redis-server exited with code ${child.exitCode}.`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!(await isRedisReachable(url, 500))) {
    child.kill('SIGKILL');
    throw new MedicError(ErrorCode.UpstreamUnavailable, 'The embedded redis-server did not start within 5 s.');
  }
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3_000))]);
    },
  };
}

/**
 * A cluster, Sentinel or REDIS_URL as configured; else the local default if it answers; else an
 * embedded server. `url` names the target for `doctor` (no password).
 */
export async function resolveRedis(options: { target: RedisTarget; embedded: boolean; dataDir: string }): Promise<{ target: RedisTarget; url: string; embedded?: EmbeddedRedis }> {
  const { target } = options;
  if (target.kind !== 'single' || target.url) return { target, url: describeRedisTarget(target) };
  const local = 'redis://127.0.0.1:6379';
  if (await isRedisReachable(local)) return { target: { kind: 'single', url: local }, url: local };
  if (!options.embedded) throw new MedicError(ErrorCode.UpstreamUnavailable, INSTALL_HINT);
  const embedded = await startEmbeddedRedis(options.dataDir);
  return { target: { kind: 'single', url: embedded.url }, url: embedded.url, embedded };
}
