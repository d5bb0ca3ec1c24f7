import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRedisReachable } from '../../src/adapters/redis/connect.js';

/** A redis-server of a test's own, on a free loopback port, with AOF in a temp dir: it may be killed. */
export interface OwnRedis {
  url: string;
  port: number;
  dir: string;
  /** SIGKILL: no shutdown save, only what the AOF already holds survives. */
  kill(): Promise<void>;
  /** Starts it again on the same port and AOF. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'medic-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const launch = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always',
      '--maxmemory-policy', 'noeviction', '--save', '', '--daemonize', 'no', '--loglevel', 'warning'], { stdio: ['ignore', 'ignore', 'inherit'] });
    for (let i = 0; i < 100 && !(await isRedisReachable(url, 200)); i++) await new Promise((r) => setTimeout(r, 50));
    if (!(await isRedisReachable(url, 500))) throw new Error(`redis-server did not start on ${port}`);
  };
  const kill = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const gone = new Promise((r) => running.once('exit', r));
    running.kill('SIGKILL');
    await gone;
  };
  await launch();
  return { url, port, dir, kill, restart: launch, async stop() { await kill(); await rm(dir, { recursive: true, force: true }); } };
}
