import { randomUUID } from 'node:crypto';
import type { RedisClient } from './connect.js';
import type { CardVersions } from '../../ports/chat-pacing.js';
import type { CardDeliveryState, DeliveryFailure, PendingReply, SentCard } from '../../ports/card-delivery.js';

// Admits a version at least the stored one, and stores it. KEYS[1] the card's version; ARGV version, ttl.
const ADMIT = `
local held = tonumber(redis.call('GET', KEYS[1]) or '-1')
if tonumber(ARGV[1]) < held then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;
const RENEW = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0";
const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
const MONTH_MS = 30 * 86_400_000;

/** The newest version each card was sent, shared by every process. */
export function createRedisCardVersions(redis: RedisClient, prefix: string): CardVersions {
  return {
    async admit(ref, version) {
      return Number(await redis.eval(ADMIT, 1, `${prefix}card:version:{${ref.channel}:${ref.ts}}`, version, MONTH_MS)) === 1;
    },
    async unsettle(ref, ms) {
      await redis.set(`${prefix}card:unsettled:{${ref.channel}:${ref.ts}}`, '1', 'PX', Math.max(1, Math.round(ms)));
    },
    async unsettledMs(ref) {
      return Math.max(0, await redis.pttl(`${prefix}card:unsettled:{${ref.channel}:${ref.ts}}`));
    },
  };
}

/** A ledger entry; one written before states were kept is a bare digest. */
function parseSent(value: string | null): SentCard | undefined {
  if (value === null) return undefined;
  return value.startsWith('{') ? (JSON.parse(value) as SentCard) : { digest: value };
}

/** Per-incident delivery lock, the ledger of what each card shows, its waiting replies, and the failing deliveries `doctor` shows. */
export function createRedisCardDeliveryState(redis: RedisClient, prefix: string): CardDeliveryState {
  const failures = `${prefix}card:failing`;
  const sentKey = (incidentId: string) => `${prefix}card:sent:{${incidentId}}`;
  const repliesKey = (incidentId: string) => `${prefix}card:replies:{${incidentId}}`;
  return {
    async tryLock(incidentId, ttlMs) {
      const token = randomUUID();
      return (await redis.set(`${prefix}card:lock:{${incidentId}}`, token, 'PX', ttlMs, 'NX')) === 'OK' ? token : undefined;
    },
    async renew(incidentId, token, ttlMs) {
      return Number(await redis.eval(RENEW, 1, `${prefix}card:lock:{${incidentId}}`, token, ttlMs)) === 1;
    },
    async unlock(incidentId, token) {
      await redis.eval(RELEASE, 1, `${prefix}card:lock:{${incidentId}}`, token);
    },
    async recordFailure(incidentId, failure) {
      await redis.hset(failures, incidentId, JSON.stringify(failure));
    },
    async clearFailure(incidentId) {
      await redis.hdel(failures, incidentId);
    },
    async lastSent(incidentId) {
      return parseSent(await redis.get(sentKey(incidentId)));
    },
    async lastSentMany(incidentIds) {
      // One GET each, not MGET: on a cluster the keys may sit in different slots.
      return Promise.all(incidentIds.map(async (id) => parseSent(await redis.get(sentKey(id)))));
    },
    async markSent(incidentId, sent) {
      await redis.set(sentKey(incidentId), JSON.stringify(sent), 'PX', MONTH_MS);
    },
    async addReply(incidentId, reply) {
      const key = repliesKey(incidentId);
      await redis.hsetnx(key, reply.key, JSON.stringify(reply));
      await redis.pexpire(key, MONTH_MS);
    },
    async pendingReplies(incidentId) {
      const all = await redis.hgetall(repliesKey(incidentId));
      return Object.values(all).map((json) => JSON.parse(json) as PendingReply).sort((a, b) => a.at - b.at || a.key.localeCompare(b.key));
    },
    async removeReply(incidentId, key) {
      await redis.hdel(repliesKey(incidentId), key);
    },
    async failing() {
      const all = await redis.hgetall(failures);
      return Object.entries(all).map(([incidentId, json]) => ({ incidentId, ...(JSON.parse(json) as DeliveryFailure) }));
    },
  };
}
