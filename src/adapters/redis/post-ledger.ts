import type { RedisClient } from './connect.js';
import type { PostEntry, PostLedger } from '../../ports/chat-pacing.js';

const MONTH_MS = 30 * 86_400_000;

// KEYS[1] the entry ("ts:<ts>" or "pending:<ms>"). ARGV now ms, settle ms, ttl ms.
const BEGIN = `
local v = redis.call('GET', KEYS[1])
if v and string.sub(v, 1, 3) == 'ts:' then return v end
if v and tonumber(ARGV[1]) - tonumber(string.sub(v, 9)) < tonumber(ARGV[2]) then return 'busy' end
redis.call('SET', KEYS[1], 'pending:' .. ARGV[1], 'PX', ARGV[3])
return 'ok'`;

function parse(value: string | null): PostEntry | undefined {
  if (!value) return undefined;
  if (value.startsWith('ts:')) return { ts: value.slice(3) };
  return { pendingSince: Number(value.slice('pending:'.length)) };
}

/** The post-once ledger in Redis, shared by every worker (see PostLedger). */
export function createRedisPostLedger(redis: RedisClient, prefix: string): PostLedger {
  const entry = (key: string) => `${prefix}slack:post:{${key}}`;
  return {
    async get(key) {
      return parse(await redis.get(entry(key)));
    },
    async begin(key, nowMs, settleMs) {
      const answer = String(await redis.eval(BEGIN, 1, entry(key), nowMs, settleMs, MONTH_MS));
      if (answer === 'ok' || answer === 'busy') return answer;
      return { ts: answer.slice(3) };
    },
    async done(key, ts) {
      await redis.set(entry(key), `ts:${ts}`, 'PX', MONTH_MS);
    },
    async clear(key) {
      await redis.del(entry(key));
    },
  };
}
