import { randomUUID } from 'node:crypto';
import type { RedisClient } from './connect.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';

const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/**
 * Runs `fn` while holding a Redis lock, waiting for it if another process holds it. Worker
 * processes that share a data directory (one clone, one index file) take turns through it.
 */
export async function withRedisLock<T>(redis: RedisClient, key: string, fn: () => Promise<T>, options: { ttlMs?: number; waitMs?: number } = {}): Promise<T> {
  const ttlMs = options.ttlMs ?? 120_000;
  const deadline = Date.now() + (options.waitMs ?? ttlMs);
  const token = randomUUID();
  while ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') {
    if (Date.now() > deadline) throw new MedicError(ErrorCode.Conflict, `Timed out waiting for the lock ${key}; another worker holds it.`, { transient: true });
    await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
  }
  try {
    return await fn();
  } finally {
    await redis.eval(RELEASE, 1, key, token);
  }
}
