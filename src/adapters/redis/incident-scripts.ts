/**
 * Lua scripts that make ingest and incident writes atomic. Redis runs a script without
 * interleaving, so two pollers or two workers can never both create an incident for one
 * fingerprint, count an event twice, or overwrite each other's step.
 */

/**
 * Lets the next event of a family open a new incident, remembering this one as its predecessor.
 * KEYS: open:<fingerprint>, last:<fingerprint>, activity zset
 * ARGV: incidentId, lastTtlMs
 */
export const RELEASE_FINGERPRINT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1
`;

/**
 * Compare-and-set of an incident record plus its audit records, in one step; a state change moves
 * one count between states in the by-state hash.
 * KEYS: incident key, global audit stream, incident audit stream, incidents:by-state hash
 * ARGV: expectedVersion, newJson, auditJson...
 * Returns 1 on success, 0 when the version moved (caller re-reads and retries), -1 when missing.
 */
export const UPDATE_INCIDENT = `
local current = redis.call('GET', KEYS[1])
if not current then return -1 end
local decoded = cjson.decode(current)
if tostring(decoded['version']) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
local nextState = cjson.decode(ARGV[2])['state']
if nextState ~= decoded['state'] then
  redis.call('HINCRBY', KEYS[4], decoded['state'], -1)
  redis.call('HINCRBY', KEYS[4], nextState, 1)
end
for i = 3, #ARGV do
  redis.call('XADD', KEYS[2], '*', 'event', ARGV[i])
  redis.call('XADD', KEYS[3], '*', 'event', ARGV[i])
end
return 1
`;
