import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../../src/adapters/redis/embedded-redis.js';

export { freePort };

export interface RedisProcess {
  port: number;
  child: ChildProcess;
  /** The last lines it wrote, for a failure message. */
  output(): string;
  /** SIGKILL, and wait until it is gone. */
  kill(): Promise<void>;
}

/** Starts `redis-server` (or `redis-server --sentinel` with a config file first) in the foreground. */
export function spawnRedis(args: string[], port: number): RedisProcess {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return {
    port,
    child,
    output: () => output,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    },
  };
}

/** Polls `probe` until it holds or the time is up; the error says what never happened. */
export async function waitUntil(probe: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One short-lived connection for a probe or an admin command; never retries. */
export async function withConnection<T>(port: number, fn: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

/** A temporary directory that `remove` deletes. */
export async function tempDir(name: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `medic-${name}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
