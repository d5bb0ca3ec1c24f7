/**
 * Lua scripts that make ingest and incident writes atomic. Redis runs a script without
 * interleaving, so two pollers or two workers can never both create an incident for one
 * fingerprint, count an event twice, or overwrite each other's step.
 */

/**
 * KEYS: processed zset, open-fingerprint key, incidents zset, pending set
 * ARGV: prefix, eventId, nowMs, candidateId, incidentJson, eventTime, eventJson, sampleCap
 * Returns {status, incidentId} with status duplicate | created | absorbed.
 */
export const INGEST_EVENT = `
if redis.call('ZADD', KEYS[1], 'NX', ARGV[3], ARGV[2]) == 0 then
  return {'duplicate', ''}
end
local id = redis.call('GET', KEYS[2])
local status = 'absorbed'
local statsKey
if not id then
  id = ARGV[4]
  status = 'created'
  redis.call('SET', KEYS[2], id)
  redis.call('SET', ARGV[1] .. 'incident:' .. id, ARGV[5])
  redis.call('ZADD', KEYS[3], ARGV[3], id)
  redis.call('SADD', KEYS[4], id)
  statsKey = ARGV[1] .. 'incident:' .. id .. ':stats'
  redis.call('HSET', statsKey, 'count', 1, 'firstSeen', ARGV[6], 'lastSeen', ARGV[6])
else
  statsKey = ARGV[1] .. 'incident:' .. id .. ':stats'
  redis.call('HINCRBY', statsKey, 'count', 1)
  local first = redis.call('HGET', statsKey, 'firstSeen')
  local last = redis.call('HGET', statsKey, 'lastSeen')
  if (not first) or ARGV[6] < first then redis.call('HSET', statsKey, 'firstSeen', ARGV[6]) end
  if (not last) or ARGV[6] > last then redis.call('HSET', statsKey, 'lastSeen', ARGV[6]) end
end
local eventsKey = ARGV[1] .. 'incident:' .. id .. ':events'
redis.call('LPUSH', eventsKey, ARGV[7])
redis.call('LTRIM', eventsKey, 0, tonumber(ARGV[8]) - 1)
return {status, id}
`;

/**
 * Compare-and-set of an incident record plus its audit records, in one step.
 * KEYS: incident key, global audit stream, incident audit stream
 * ARGV: expectedVersion, newJson, auditJson...
 * Returns 1 on success, 0 when the version moved (caller re-reads and retries), -1 when missing.
 */
export const UPDATE_INCIDENT = `
local current = redis.call('GET', KEYS[1])
if not current then return -1 end
local version = cjson.decode(current)['version']
if tostring(version) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
for i = 3, #ARGV do
  redis.call('XADD', KEYS[2], '*', 'event', ARGV[i])
  redis.call('XADD', KEYS[3], '*', 'event', ARGV[i])
end
return 1
`;
