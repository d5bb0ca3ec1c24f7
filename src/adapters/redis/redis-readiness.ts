import type { RedisClient } from './connect.js';
import type { ServiceCheck } from '../../ports/service-check.js';

export const READY_TIMEOUT_MS = 800;

/**
 * Readiness from the connection itself: a client that is not connected answers at once (its
 * commands would wait in the offline queue until a reconnect), and a connected one must answer
 * PING within the bound. Nothing upstream is called — that is `doctor`'s deep check.
 */
export async function checkRedisReady(redis: RedisClient, timeoutMs = READY_TIMEOUT_MS): Promise<ServiceCheck> {
  const check = (ok: boolean, detail: string): ServiceCheck => ({ name: 'redis', adapter: 'redis', ok, detail });
  if (redis.status !== 'ready') return check(false, `not connected (connection ${redis.status}); check REDIS_URL and that Redis is up`);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ServiceCheck>((resolve) => {
    timer = setTimeout(() => resolve(check(false, `no answer to PING within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([redis.ping().then(() => check(true, 'answers PING'), (error: unknown) => check(false, String(error))), late]);
  } finally {
    clearTimeout(timer);
  }
}
