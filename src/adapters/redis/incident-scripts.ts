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
 * Keeps an incident holding its family. With a window (a verified incident), \`open:<fp>\` still
 * names it for that long, so the family's next events are counted into it, and the predecessor
 * link outlives it, so a later event opens a new incident naming this one; the incident leaves the
 * activity index (it is not quiet-closed again). With window 0 (a reopened incident), the hold has
 * no end again and the incident is active.
 * KEYS: open:<fingerprint>, last:<fingerprint>, activity zset
 * ARGV: incidentId, windowMs (0: no end), lastTtlMs, nowMs
 * Returns 1 when the incident held the family, 0 when another incident (or none) did.
 */
export const HOLD_FAMILY = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if tonumber(ARGV[2]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[3])
  redis.call('ZREM', KEYS[3], ARGV[1])
else
  redis.call('PERSIST', KEYS[1])
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
end
return 1
`;

/**
 * Compare-and-set of an incident record plus its audit records, in one step; a state change moves
 * one count between states in the by-state hash, and the id between the per-state indexes.
 * The record keeps its TTL (a closed incident's retention) across writes.
 * A write by a lease holder carries its fence: checked here against the largest fence admitted
 * on the lock's resource, so a holder whose lease was taken over and written by a later holder is
 * refused (and the refusal audited) in the same step that would have written.
 * KEYS: incident key, global audit stream, incident audit stream, incidents:by-state hash,
 *       5 outbox hash (order field -> order json), 6 incidents:state:<current state> zset,
 *       7 incidents:state:<next state> zset, 8 incidents zset (the index score),
 *       9 the lock's largest admitted fence (unused without a fence)
 * ARGV: expectedVersion, newJson, orderField ('' for none), orderJson, 5 audit MAXLEN,
 *       6 incident audit MAXLEN, 7 fence ('' for none), 8 denial audit json, 9 admitted ttl ms,
 *       10 incident id, 11 the new record's state, auditJson...
 * Returns 1 on success, 0 when the version moved (caller re-reads and retries), -1 when missing,
 * -2 when the fence is behind a later holder's.
 * The stored record's version and state are read from its head when no object or array opens
 * before them (records are written scalar fields first), so a large record is not decoded on
 * every write; any other layout is decoded whole.
 */
export const UPDATE_INCIDENT = `
local current = redis.call('GET', KEYS[1])
if not current then return -1 end
if ARGV[7] ~= '' then
  if tonumber(ARGV[7]) < tonumber(redis.call('GET', KEYS[9]) or '0') then
    redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[5], '*', 'event', ARGV[8])
    redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[6], '*', 'event', ARGV[8])
    return -2
  end
end
local function head_field(json, pattern)
  local at, _, value = string.find(json, pattern)
  local nested = string.find(json, '[%[{]', 2)
  if at and (not nested or nested > at) then return value end
end
local version, state = head_field(current, ',"version":(%d+)[,}]'), head_field(current, ',"state":"([%w_]+)"')
if not version or not state then
  local decoded = cjson.decode(current)
  version, state = tostring(decoded['version']), decoded['state']
end
if version ~= ARGV[1] then return 0 end
local id, nextState = ARGV[10], ARGV[11]
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
if ARGV[7] ~= '' then redis.call('SET', KEYS[9], ARGV[7], 'PX', ARGV[9]) end
if nextState ~= state then
  redis.call('HINCRBY', KEYS[4], state, -1)
  redis.call('HINCRBY', KEYS[4], nextState, 1)
end
-- per-state index: the id moves to its new state's zset, keeping its creation score
redis.call('ZREM', KEYS[6], id)
redis.call('ZADD', KEYS[7], redis.call('ZSCORE', KEYS[8], id) or '0', id)
-- outbox: the promised work is written with the change it follows from
if ARGV[3] ~= '' then redis.call('HSET', KEYS[5], ARGV[3], ARGV[4]) end
for i = 12, #ARGV do
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[5], '*', 'event', ARGV[i])
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[6], '*', 'event', ARGV[i])
end
return 1
`;
