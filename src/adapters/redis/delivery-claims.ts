import { createHash } from 'node:crypto';
import type { RedisClient } from './connect.js';

/**
 * Slack delivery claims shared by every web process and kept across restarts: the first process to
 * claim a delivery's key handles it; a retry or a replay of the same signed request — to this
 * process, another one, or after a restart — is acknowledged and dropped. The TTL outlives the
 * window in which a signature is accepted (five minutes either side of its timestamp).
 */
export function createRedisDeliveryClaims(redis: RedisClient, prefix: string, options: { ttlMs?: number } = {}) {
  const ttlMs = options.ttlMs ?? 15 * 60_000;
  return {
    async claim(key: string): Promise<boolean> {
      const digest = createHash('sha256').update(key).digest('hex').slice(0, 32);
      return (await redis.set(`${prefix}slack:delivery:${digest}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
    },
  };
}
