import type { RedisClient } from './connect.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { acquireLease, DEFAULT_LEASE_MS } from './leased-lock.js';

/**
 * Runs `fn` while holding a Redis lock, waiting for it if another process holds it. Worker
 * processes that share a data directory (one clone, one index file) take turns through it. The
 * lock is a lease renewed while this process lives: a worker killed inside git work frees it within
 * `leaseMs`, so the fleet does not stall behind a dead holder. `fn` receives the lease's `lost`
 * signal, aborted if a renewal ever finds the lock taken over.
 */
export async function withRedisLock<T>(redis: RedisClient, key: string, fn: (lost: AbortSignal) => Promise<T>, options: { leaseMs?: number; waitMs?: number } = {}): Promise<T> {
  const lease = await acquireLease(redis, key, { leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS, waitMs: options.waitMs ?? 120_000 });
  if (!lease) throw new MedicError(ErrorCode.Conflict, `Timed out waiting for the lock ${key}; another worker holds it.`, { transient: true });
  try {
    return await fn(lease.lost);
  } finally {
    await lease.release().catch(() => undefined);
  }
}
