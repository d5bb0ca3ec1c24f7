import type { RedisClient } from './connect.js';
import { z } from 'zod';
import { ErrorEvent } from '../../domain/event.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { shortHash } from '../../domain/hash.js';
import { createIncident, Incident } from '../../domain/incident.js';
import { isOverflowFingerprint } from '../../domain/storm-policy.js';
import type { IncidentGrouping } from '../../ports/incident-grouping.js';
import { createGroupingDecisions } from './grouping-decisions.js';

/**
 * KEYS: 1 overflow:<hour>:families, 2 overflow:<hour>:volume, 3 overflow:<hour>:info, 4 open:<fp>,
 *       5 incidents zset, 6 pending-analysis set, 7 activity zset, 8 incidents:by-state hash
 * ARGV: 1 prefix, 2 fingerprint, 3 incidentId, 4 incidentJson, 5 nowMs, 6 overflowId, 7 eventTime
 * Returns {created|open|absent, incidentId}.
 */
const OPEN_FROM_OVERFLOW = `
local prefix, fp, id = ARGV[1], ARGV[2], ARGV[3]
if redis.call('SISMEMBER', KEYS[1], fp) == 0 then
  local existing = redis.call('GET', KEYS[4])
  if existing then return {'open', existing} end
  return {'absent', ''}
end
if ARGV[4] == '' then return {'absent', ''} end
local count = tonumber(redis.call('HGET', KEYS[3], fp .. ':count') or '0')
local first = redis.call('HGET', KEYS[3], fp .. ':first') or ARGV[7]
redis.call('SREM', KEYS[1], fp)
redis.call('ZREM', KEYS[2], fp)
redis.call('HDEL', KEYS[3], fp, fp .. ':count', fp .. ':first', fp .. ':event')
-- Its events leave the overflow's count for its own: counts add up, none twice.
redis.call('HINCRBY', prefix .. 'incident:' .. ARGV[6] .. ':stats', 'count', -count)
redis.call('SET', KEYS[4], id)
redis.call('SET', prefix .. 'incident:' .. id, ARGV[4])
redis.call('ZADD', KEYS[5], ARGV[5], id)
redis.call('HINCRBY', KEYS[8], cjson.decode(ARGV[4])['state'], 1)
-- per-state index (incidents:state:<state> zset, scored like the incidents zset)
redis.call('ZADD', prefix .. 'incidents:state:' .. cjson.decode(ARGV[4])['state'], ARGV[5], id)
redis.call('SADD', KEYS[6], id)
redis.call('HSET', prefix .. 'incident:' .. id .. ':stats', 'count', count, 'firstSeen', first, 'lastSeen', ARGV[7])
redis.call('ZADD', KEYS[7], ARGV[5], id)
return {'created', id}
`;

const Info = z.object({ service: z.string(), title: z.string() });

export function createIncidentGrouping(redis: RedisClient, prefix: string, clock: () => Date = () => new Date()): IncidentGrouping {
  return {
    ...createGroupingDecisions(redis, prefix, clock),
    async overflowFamilyService({ overflowIncidentId, fingerprint }) {
      const raw = await redis.get(`${prefix}incident:${overflowIncidentId}`);
      const overflow = raw === null ? undefined : Incident.parse(JSON.parse(raw));
      if (!overflow || !isOverflowFingerprint(overflow.fingerprint)) return undefined;
      const infoJson = await redis.hget(`${prefix}${overflow.fingerprint}:info`, fingerprint);
      return infoJson ? Info.parse(JSON.parse(infoJson)).service : undefined;
    },
    async openFromOverflow({ overflowIncidentId, fingerprint }) {
      const raw = await redis.get(`${prefix}incident:${overflowIncidentId}`);
      const overflow = raw === null ? undefined : Incident.parse(JSON.parse(raw));
      if (!overflow || !isOverflowFingerprint(overflow.fingerprint)) {
        throw new MedicError(ErrorCode.NotFound, `No overflow incident ${overflowIncidentId}.`);
      }
      const info = `${prefix}${overflow.fingerprint}:info`;
      const [infoJson, eventJson] = await redis.hmget(info, fingerprint, `${fingerprint}:event`);
      const at = clock();
      let candidate = '';
      let id = '';
      let eventTime = at.toISOString();
      if (infoJson && eventJson) {
        const { title } = Info.parse(JSON.parse(infoJson));
        const event = ErrorEvent.parse(JSON.parse(eventJson));
        eventTime = event.time;
        id = `inc-${shortHash(fingerprint).slice(0, 12)}-${Math.floor(at.getTime() / 1000).toString(36)}`;
        candidate = JSON.stringify({ ...createIncident({ id, fingerprint, title, event, at: at.toISOString() }), promotedFrom: overflowIncidentId });
      }
      const [status, incidentId] = (await redis.eval(
        OPEN_FROM_OVERFLOW, 8,
        `${prefix}${overflow.fingerprint}:families`, `${prefix}${overflow.fingerprint}:volume`, info, `${prefix}open:${fingerprint}`,
        `${prefix}incidents`, `${prefix}pending-analysis`, `${prefix}activity`, `${prefix}incidents:by-state`,
        prefix, fingerprint, id || 'none', candidate, at.getTime(), overflowIncidentId, eventTime,
      )) as [string, string];
      if (status === 'absent') throw new MedicError(ErrorCode.NotFound, `The overflow incident ${overflowIncidentId} holds no such family any more.`);
      return { incidentId, opened: status === 'created' };
    },
  };
}
