/**
 * Lua scripts that make ingest and incident writes atomic. Redis runs a script without
 * interleaving, so two pollers or two workers can never both create an incident for one
 * fingerprint, count an event twice, or overwrite each other's step.
 */

/**
 * KEYS: 1 processed zset, 2 open:<fingerprint>, 3 incidents zset, 4 pending-analysis set,
 *       5 forming:<fingerprint> hash (events of a family below its opening rule),
 *       6 forming:<fingerprint>:events list, 7 activity zset (incident id -> last event recorded, ms),
 *       8 last:<fingerprint> (the family's closed incident), 9 cap:<hour> counter,
 *       10 cap:<service>:<hour> counter, 11 open:overflow:<hour>, 12 overflow:<hour>:families set,
 *       13 overflow:<hour>:template (the overflow incident record to create),
 *       14 family:<family>:scopes set (the scopes in which the family holds state, for merges),
 *       15 cap:<hour>:volume zset and 16 cap:<service>:<hour>:volume zset (incidents opened this
 *       hour -> a lower bound of their weighted events, refreshed when compared), 17 overflow:<hour>:volume zset (suppressed fingerprint ->
 *       weighted events), 18 overflow:<hour>:info hash (<fp> -> {service,title}, <fp>:count, <fp>:first)
 *       19 incidents:by-state hash (state -> count, kept here so metrics never scan the records)
 * ARGV: 1 prefix, 2 eventId, 3 nowMs, 4 candidateId, 5 incidentJson, 6 eventTime, 7 eventJson,
 *       8 sampleCap, 9 minEvents, 10 windowMs, 11 maxNewPerHour (0 = none),
 *       12 maxNewPerServiceHour (0 = none), 13 fingerprint, 14 msLeftInHour, 15 scope,
 *       16 weight (the event's severity weight), 17 infoJson ({service, title} of the family)
 * Returns {status, incidentId}: duplicate | held (below the opening rule) | created | absorbed |
 * overflow (over the hourly cap: counted into the hour's overflow incident). A suppressed family
 * whose weighted volume outgrows the smallest incident opened under the cap is promoted: it takes
 * that one's place in the cap's ranking and opens its own incident (created, promotedFrom set).
 */
export const INGEST_EVENT = `
local prefix, now, eventTime, sampleCap = ARGV[1], tonumber(ARGV[3]), ARGV[6], tonumber(ARGV[8])
if redis.call('ZADD', KEYS[1], 'NX', ARGV[3], ARGV[2]) == 0 then
  return {'duplicate', ''}
end

local function count_into(id, n, first, last)
  local statsKey = prefix .. 'incident:' .. id .. ':stats'
  redis.call('HINCRBY', statsKey, 'count', n)
  local f = redis.call('HGET', statsKey, 'firstSeen')
  local l = redis.call('HGET', statsKey, 'lastSeen')
  if (not f) or first < f then redis.call('HSET', statsKey, 'firstSeen', first) end
  if (not l) or last > l then redis.call('HSET', statsKey, 'lastSeen', last) end
  redis.call('ZADD', KEYS[7], now, id)
end

local function sample(id, eventJson)
  local eventsKey = prefix .. 'incident:' .. id .. ':events'
  redis.call('LPUSH', eventsKey, eventJson)
  redis.call('LTRIM', eventsKey, 0, sampleCap - 1)
end

local weight = tonumber(ARGV[16])
local function absorb(id)
  count_into(id, 1, eventTime, eventTime)
  sample(id, ARGV[7])
  return {'absorbed', id}
end

local function open_incident(n, first, last, promotedFrom)
  local newId, json = ARGV[4], ARGV[5]
  local previous = redis.call('GET', KEYS[8])
  if previous then json = string.sub(json, 1, -2) .. ',"previousIncidentId":' .. cjson.encode(previous) .. '}' end
  if promotedFrom then json = string.sub(json, 1, -2) .. ',"promotedFrom":' .. cjson.encode(promotedFrom) .. '}' end
  redis.call('SET', KEYS[2], newId)
  redis.call('SET', prefix .. 'incident:' .. newId, json)
  redis.call('ZADD', KEYS[3], now, newId)
  redis.call('HINCRBY', KEYS[19], cjson.decode(json)['state'], 1)
  -- per-state index (incidents:state:<state> zset, scored like the incidents zset)
  redis.call('ZADD', prefix .. 'incidents:state:' .. cjson.decode(json)['state'], now, newId)
  redis.call('SADD', KEYS[4], newId)
  redis.call('HSET', prefix .. 'incident:' .. newId .. ':stats', 'count', 0, 'firstSeen', first, 'lastSeen', last, 'weight', weight)
  count_into(newId, n, first, last)
  return newId
end

local id = redis.call('GET', KEYS[2])
if id then
  return absorb(id)
end

-- A family suppressed this hour keeps counting into the hour's overflow incident, until it
-- outgrows the smallest incident opened under the cap that suppressed it.
if redis.call('SISMEMBER', KEYS[12], ARGV[13]) == 1 then
  local oid = redis.call('GET', KEYS[11])
  if oid then
    local fp = ARGV[13]
    local volume = tonumber(redis.call('ZINCRBY', KEYS[17], weight, fp))
    local count = redis.call('HINCRBY', KEYS[18], fp .. ':count', 1)
    local maxService = tonumber(ARGV[12])
    local byService = maxService > 0 and tonumber(redis.call('GET', KEYS[10]) or '0') >= maxService
    local ranking = byService and KEYS[16] or KEYS[15]
    -- Ranking scores are lower bounds (set when an incident opened; its count only grows), so
    -- the lightest is found by refreshing the head until it holds: absorbing stays one HINCRBY.
    local smallest
    for _ = 1, 8 do
      local head = redis.call('ZRANGE', ranking, 0, 0, 'WITHSCORES')
      if not head[1] then break end
      local stats = prefix .. 'incident:' .. head[1] .. ':stats'
      local current = tonumber(redis.call('HGET', stats, 'count') or '0') * tonumber(redis.call('HGET', stats, 'weight') or '1')
      if current <= tonumber(head[2]) then
        smallest = head
        break
      end
      redis.call('ZADD', ranking, current, head[1])
    end
    if smallest and volume > tonumber(smallest[2]) then
      redis.call('ZREM', ranking, smallest[1])
      redis.call('SREM', KEYS[12], fp)
      redis.call('ZREM', KEYS[17], fp)
      local first = redis.call('HGET', KEYS[18], fp .. ':first') or eventTime
      redis.call('HDEL', KEYS[18], fp, fp .. ':count', fp .. ':first', fp .. ':event')
      -- Its events so far leave the overflow's count for its own: counts add up, none twice.
      redis.call('HINCRBY', prefix .. 'incident:' .. oid .. ':stats', 'count', 1 - count)
      local newId = open_incident(count, first, eventTime, oid)
      sample(newId, ARGV[7])
      redis.call('ZADD', KEYS[15], volume, newId)
      redis.call('ZADD', KEYS[16], volume, newId)
      return {'created', newId}
    end
    absorb(oid)
    return {'overflow', oid}
  end
end

-- No open incident: the family forms until its opening rule is met (N events within the window).
-- From here on the family holds state under its fingerprint, which a family merge must find.
if ARGV[15] ~= '' then
  redis.call('SADD', KEYS[14], ARGV[15])
  redis.call('PEXPIRE', KEYS[14], 2592000000)
end
local n, first, last = 1, eventTime, eventTime
local minEvents = tonumber(ARGV[9])
if minEvents > 1 then
  local windowMs = tonumber(ARGV[10])
  local started = redis.call('HGET', KEYS[5], 'startMs')
  if started and now - tonumber(started) > windowMs then
    redis.call('DEL', KEYS[5], KEYS[6])
    started = false
  end
  if not started then
    redis.call('HSET', KEYS[5], 'startMs', now, 'firstSeen', eventTime, 'lastSeen', eventTime)
    redis.call('PEXPIRE', KEYS[5], windowMs)
  end
  n = redis.call('HINCRBY', KEYS[5], 'count', 1)
  first = redis.call('HGET', KEYS[5], 'firstSeen')
  last = redis.call('HGET', KEYS[5], 'lastSeen')
  if eventTime < first then first = eventTime; redis.call('HSET', KEYS[5], 'firstSeen', first) end
  if eventTime > last then last = eventTime; redis.call('HSET', KEYS[5], 'lastSeen', last) end
  redis.call('LPUSH', KEYS[6], ARGV[7])
  redis.call('LTRIM', KEYS[6], 0, sampleCap - 1)
  redis.call('PEXPIRE', KEYS[6], windowMs)
  if n < minEvents then return {'held', ''} end
end

local function move_forming_events(id)
  local eventsKey = prefix .. 'incident:' .. id .. ':events'
  if redis.call('EXISTS', KEYS[6]) == 1 then
    for _, e in ipairs(redis.call('LRANGE', KEYS[6], 0, -1)) do redis.call('RPUSH', eventsKey, e) end
    redis.call('LTRIM', eventsKey, 0, sampleCap - 1)
  else
    sample(id, ARGV[7])
  end
  redis.call('DEL', KEYS[5], KEYS[6])
end

local maxAll, maxService = tonumber(ARGV[11]), tonumber(ARGV[12])
local openedAll = tonumber(redis.call('GET', KEYS[9]) or '0')
local openedService = tonumber(redis.call('GET', KEYS[10]) or '0')
local leftMs = tonumber(ARGV[14])
if (maxAll > 0 and openedAll >= maxAll) or (maxService > 0 and openedService >= maxService) then
  local oid = redis.call('GET', KEYS[11])
  if not oid then
    local template = redis.call('GET', KEYS[13])
    if not template then return redis.error_reply('overflow template missing for ' .. KEYS[13]) end
    oid = cjson.decode(template)['id']
    redis.call('SET', KEYS[11], oid)
    redis.call('SET', prefix .. 'incident:' .. oid, template)
    redis.call('ZADD', KEYS[3], now, oid)
    redis.call('HINCRBY', KEYS[19], cjson.decode(template)['state'], 1)
    -- per-state index (incidents:state:<state> zset, scored like the incidents zset)
    redis.call('ZADD', prefix .. 'incidents:state:' .. cjson.decode(template)['state'], now, oid)
  end
  redis.call('SADD', KEYS[12], ARGV[13])
  redis.call('PEXPIRE', KEYS[12], leftMs + 7200000)
  redis.call('ZADD', KEYS[17], weight * n, ARGV[13])
  redis.call('HSET', KEYS[18], ARGV[13], ARGV[17], ARGV[13] .. ':count', n, ARGV[13] .. ':first', first, ARGV[13] .. ':event', ARGV[7])
  redis.call('PEXPIRE', KEYS[17], leftMs + 7200000)
  redis.call('PEXPIRE', KEYS[18], leftMs + 7200000)
  count_into(oid, n, first, last)
  move_forming_events(oid)
  return {'overflow', oid}
end

redis.call('INCR', KEYS[9])
redis.call('PEXPIRE', KEYS[9], leftMs + 60000)
redis.call('INCR', KEYS[10])
redis.call('PEXPIRE', KEYS[10], leftMs + 60000)
id = open_incident(n, first, last, false)
redis.call('ZADD', KEYS[15], weight * n, id)
redis.call('ZADD', KEYS[16], weight * n, id)
redis.call('PEXPIRE', KEYS[15], leftMs + 60000)
redis.call('PEXPIRE', KEYS[16], leftMs + 60000)
move_forming_events(id)
return {'created', id}
`;

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
 * one count between states in the by-state hash, and the id between the per-state indexes.
 * The record keeps its TTL (a closed incident's retention) across writes.
 * KEYS: incident key, global audit stream, incident audit stream, incidents:by-state hash,
 *       5 outbox hash (order field -> order json), 6 incidents:state:<current state> zset,
 *       7 incidents:state:<next state> zset, 8 incidents zset (the index score)
 * ARGV: expectedVersion, newJson, orderField ('' for none), orderJson, 5 audit MAXLEN,
 *       6 incident audit MAXLEN, auditJson...
 * Returns 1 on success, 0 when the version moved (caller re-reads and retries), -1 when missing.
 */
export const UPDATE_INCIDENT = `
local current = redis.call('GET', KEYS[1])
if not current then return -1 end
local decoded = cjson.decode(current)
if tostring(decoded['version']) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
local nextState = cjson.decode(ARGV[2])['state']
if nextState ~= decoded['state'] then
  redis.call('HINCRBY', KEYS[4], decoded['state'], -1)
  redis.call('HINCRBY', KEYS[4], nextState, 1)
end
-- per-state index: the id moves to its new state's zset, keeping its creation score
redis.call('ZREM', KEYS[6], decoded['id'])
redis.call('ZADD', KEYS[7], redis.call('ZSCORE', KEYS[8], decoded['id']) or '0', decoded['id'])
-- outbox: the promised work is written with the change it follows from
if ARGV[3] ~= '' then redis.call('HSET', KEYS[5], ARGV[3], ARGV[4]) end
for i = 7, #ARGV do
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[5], '*', 'event', ARGV[i])
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[6], '*', 'event', ARGV[i])
end
return 1
`;
