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
    /**
     * True for the first claim of `key`, and again for the same `holder` — one queued delivery
     * taken over from a worker that died after claiming it is the same click, not a replay.
     */
    async claim(key: string, holder = '1'): Promise<boolean> {
      const digest = createHash('sha256').update(key).digest('hex').slice(0, 32);
      return Number(await redis.eval(CLAIM, 1, `${prefix}slack:delivery:${digest}`, holder, ttlMs)) === 1;
    },
  };
}

const CLAIM = `
local held = redis.call('GET', KEYS[1])
if held == false then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
if held == ARGV[1] and ARGV[1] ~= '1' then return 1 end
return 0
`;
