import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { RedisClient } from './connect.js';

/**
 * A lock held on a short lease that its holder renews while it is alive. A process killed while
 * holding one frees it within one lease (seconds), never after a fixed long TTL; a holder that
 * misses its renewals (paused, partitioned) learns it lost the lock through `lost`, so it can stop.
 *
 * Each grant carries a fencing token: a number taken from a counter that only grows, so a later
 * holder's token is always larger than any earlier one's, and a write checked against the largest
 * token seen refuses a holder whose lease ran out while it was stalled.
 */
export interface Lease {
  /** Identifies this grant: owner (host:pid) plus a random part, stored as the lock's value. */
  readonly token: string;
  /** Monotonic across every grant of this key. */
  readonly fence: number;
  /** Aborted when a renewal finds the lock gone or held by someone else. */
  readonly lost: AbortSignal;
  release(): Promise<void>;
}

// Take the lock and the next fence in one step; the fence counter outlives every lease.
const ACQUIRE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local fence = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. fence, 'PX', ARGV[2])
return fence
`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
// Compare-and-delete: a lease that ran out and was granted to another holder is not ours to free.
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export const DEFAULT_LEASE_MS = 5_000;

/** Who holds a lock, readable by an operator looking at the key: host, pid and a random part. */
export function lockOwner(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** The fence counter beside a lock key. */
export function fenceKey(lockKey: string): string {
  return `${lockKey}:fence`;
}

/** One attempt; undefined when another live holder has the lock. */
export async function tryAcquireLease(redis: RedisClient, key: string, options: { leaseMs?: number } = {}): Promise<Lease | undefined> {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const owner = lockOwner();
  const fence = Number(await redis.eval(ACQUIRE, 2, key, fenceKey(key), owner, leaseMs));
  if (!fence) return undefined;
  const value = `${owner}|${fence}`;
  const controller = new AbortController();
  let released = false;
  // Renew three times per lease, so one slow round trip does not lose it.
  const renew = async () => {
    if (released) return;
    const ok = await redis.eval(RENEW, 1, key, value, leaseMs).then(Number, () => -1);
    if (ok === 0 && !released) {
      clearInterval(timer);
      controller.abort(new Error(`lost the lease on ${key}`));
    }
  };
  const timer = setInterval(() => void renew(), Math.max(50, Math.floor(leaseMs / 3)));
  timer.unref();
  return {
    token: value,
    fence,
    lost: controller.signal,
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await redis.eval(RELEASE, 1, key, value);
    },
  };
}

/** Waits (polling with jitter) until the lock is free or `waitMs` has passed; undefined on timeout. */
export async function acquireLease(redis: RedisClient, key: string, options: { leaseMs?: number; waitMs: number }): Promise<Lease | undefined> {
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    const lease = await tryAcquireLease(redis, key, options);
    if (lease) return lease;
    if (Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
  }
}
