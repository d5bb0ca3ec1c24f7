import type { RedisClient } from './connect.js';
import { IncidentState } from '../../domain/incident.js';

/**
 * Retention of resolved incidents. A closed incident's record, counts, event sample and audit
 * stream get a TTL (the record keeps it across later writes: UPDATE_INCIDENT sets with KEEPTTL),
 * and its id is scheduled in `expiring`; once Redis has dropped the record, `pruneExpired` takes the
 * id out of the indexes, so listing and the state counts never see a ghost.
 */
export function retainedKeys(prefix: string, id: string): string[] {
  return [`${prefix}incident:${id}`, `${prefix}incident:${id}:stats`, `${prefix}incident:${id}:rate`, `${prefix}incident:${id}:events`, `${prefix}audit:${id}`];
}

export async function scheduleExpiry(redis: RedisClient, prefix: string, id: string, retentionMs: number, nowMs: number): Promise<void> {
  const multi = redis.multi();
  for (const key of retainedKeys(prefix, id)) multi.pexpire(key, retentionMs);
  multi.zadd(`${prefix}expiring`, nowMs + retentionMs, id);
  await multi.exec();
}

/** A closed incident reopened (closed → new) is kept again. */
export async function cancelExpiry(redis: RedisClient, prefix: string, id: string): Promise<void> {
  const multi = redis.multi();
  for (const key of retainedKeys(prefix, id)) multi.persist(key);
  multi.zrem(`${prefix}expiring`, id);
  await multi.exec();
}

/**
 * KEYS: 1 expiring zset, 2 incidents zset, 3 incidents:by-state hash, 4 activity zset
 * ARGV: 1 prefix, 2 nowMs, 3 batch, states...
 * Returns how many ids were taken out of the indexes.
 */
const PRUNE_EXPIRED = `
local prefix = ARGV[1]
local pruned = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))) do
  local key = prefix .. 'incident:' .. id
  if redis.call('EXISTS', key) == 0 then
    redis.call('ZREM', KEYS[2], id)
    redis.call('ZREM', KEYS[4], id)
    for i = 4, #ARGV do
      if redis.call('ZREM', prefix .. 'incidents:state:' .. ARGV[i], id) == 1 then redis.call('HINCRBY', KEYS[3], ARGV[i], -1) end
    end
    redis.call('ZREM', KEYS[1], id)
    pruned = pruned + 1
  elseif redis.call('PTTL', key) < 0 then
    redis.call('ZREM', KEYS[1], id)
  end
end
return pruned
`;

export async function pruneExpired(redis: RedisClient, prefix: string, nowMs: number): Promise<number> {
  let total = 0;
  for (;;) {
    const pruned = Number(await redis.eval(PRUNE_EXPIRED, 4, `${prefix}expiring`, `${prefix}incidents`, `${prefix}incidents:by-state`, `${prefix}activity`, prefix, nowMs, 500, ...IncidentState.options));
    total += pruned;
    if (pruned < 500) return total;
  }
}
