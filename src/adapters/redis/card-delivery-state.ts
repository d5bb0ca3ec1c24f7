import type { RedisClient } from './connect.js';
import { AuditEvent, PIPELINE_ACTOR } from '../../domain/audit.js';
import { ErrorCode } from '../../domain/errors.js';
import type { CardVersions } from '../../ports/chat-pacing.js';
import type { CardDeliveryState, DeliveryFailure, PendingReply, SentCard } from '../../ports/card-delivery.js';
import { ADMITTED_FENCE_TTL_MS } from '../../ports/write-fence.js';
import { auditKeys } from './audit-log.js';
import { fenceKey, lockOwner } from './leased-lock.js';

// Admits a version at least the stored one, and stores it. KEYS[1] the card's version; ARGV version, ttl.
const ADMIT = `
local held = tonumber(redis.call('GET', KEYS[1]) or '-1')
if tonumber(ARGV[1]) < held then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;
// Takes the card's lock and the next fence in one step. The counter outlives the admitted fence
// (twice its TTL, both refreshed on use), so a counter that starts again finds nothing to be behind.
// KEYS[1] the lock, KEYS[2] its fence counter; ARGV token, lease ms, counter ttl ms.
const LOCK = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local fence = redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. fence, 'PX', ARGV[2])
return fence`;
// The resource's fence check and the write's ledger record in one step; a refusal is audited instead.
// KEYS[1] the largest admitted fence, KEYS[2] the ledger entry, KEYS[3] audit, KEYS[4] the incident's audit.
// ARGV fence, ttl ms, sent json ('' for none), denial json, audit MAXLEN, incident audit MAXLEN.
const ADMIT_WRITE = `
local seen = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) < seen then
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[5], '*', 'event', ARGV[4])
  redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[6], '*', 'event', ARGV[4])
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if ARGV[3] ~= '' then redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[2]) end
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

/**
 * Per-incident delivery lock, the ledger of what each card shows, its waiting replies, and the
 * failing deliveries `doctor` shows. The lock is a lease with a fencing number, checked by
 * `admitWrite` before each Slack write. `auditMaxLen` caps the audit streams as the audit log does.
 */
export function createRedisCardDeliveryState(redis: RedisClient, prefix: string, options: { auditMaxLen?: number } = {}): CardDeliveryState {
  const auditMaxLen = options.auditMaxLen ?? 1_000_000;
  const failures = `${prefix}card:failing`;
  const lockName = (incidentId: string) => `card:lock:{${incidentId}}`;
  const sentKey = (incidentId: string) => `${prefix}card:sent:{${incidentId}}`;
  const repliesKey = (incidentId: string) => `${prefix}card:replies:{${incidentId}}`;
  return {
    async tryLock(incidentId, ttlMs) {
      const lock = lockName(incidentId);
      const owner = lockOwner();
      const fence = Number(await redis.eval(LOCK, 2, `${prefix}${lock}`, fenceKey(`${prefix}${lock}`), owner, ttlMs, 2 * ADMITTED_FENCE_TTL_MS));
      return fence ? { token: `${owner}|${fence}`, fence: { lock, fence } } : undefined;
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
    async admitWrite(incidentId, { lock, fence }, write, sent) {
      const denial = AuditEvent.parse({
        at: new Date().toISOString(), action: `card.${write}`, outcome: 'denied', actor: PIPELINE_ACTOR, incidentId,
        reason: `this worker's lease on ${lock} (fence ${fence}) was taken over and a later holder has written; nothing was sent to Slack`,
        details: { lock, fence, code: ErrorCode.StaleLease },
      });
      const [audit, incidentAudit] = auditKeys(prefix, incidentId);
      const admitted = await redis.eval(ADMIT_WRITE, 4, `${prefix}${lock}:admitted`, sentKey(incidentId), audit!, incidentAudit!,
        fence, MONTH_MS, sent ? JSON.stringify(sent) : '', JSON.stringify(denial), auditMaxLen, Math.min(auditMaxLen, 10_000));
      return Number(admitted) === 1;
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
