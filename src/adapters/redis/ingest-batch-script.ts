/**
 * Ingest of a batch of events in one script call: each event takes exactly the path it took
 * when it was a call of its own (duplicate | held | created | absorbed | overflow, in input
 * order), but what events of a batch repeat is done once: an open incident's id is read once per
 * fingerprint, and counts, first/last seen, samples and activity are added up in the script and
 * written once per incident, before anything in the script reads them and at its end. Redis
 * runs the script without interleaving, as it ran each event's.
 *
 * KEYS: 1 processed zset, 2 incidents zset, 3 pending-analysis set, 4 activity zset (incident id
 *       -> last event recorded, ms), 5 cap:<hour> counter, 6 open:overflow:<hour>,
 *       7 overflow:<hour>:families set, 8 overflow:<hour>:template (the overflow incident record
 *       to create), 9 cap:<hour>:volume zset (incidents opened this hour -> a lower bound of
 *       their weighted events, refreshed when compared), 10 overflow:<hour>:volume zset
 *       (suppressed fingerprint -> weighted events), 11 overflow:<hour>:info hash (<fp> ->
 *       {service,title}, <fp>:count, <fp>:first, <fp>:event), 12 incidents:by-state hash;
 *       then 5 per fingerprint group g (0-based, at 13 + 5g): open:<fp>, forming:<fp> hash (events of a
 *       family below its opening rule), forming:<fp>:events list, last:<fp> (the family's closed
 *       incident), family:<family>:scopes set (the scopes in which the family holds state, for merges);
 *       then 2 per service s (after the groups): cap:<service>:<hour> counter, cap:<service>:<hour>:volume zset.
 * ARGV: 1 prefix, 2 nowMs, 3 sampleCap, 4 maxNewPerHour (0 = none), 5 maxNewPerServiceHour (0 = none),
 *       6 msLeftInHour, 7 G groups, 8 S shared strings, 9 N events;
 *       then per group: fingerprint, scope; then the S strings (candidate shapes, info JSONs, profiles);
 *       then per event (5 each): eventId, eventTime, eventJson, candidateId, profile (a string
 *       number). A profile is what the events of a family share, as comma-separated numbers: shape
 *       (the string holding the candidate record's JSON without id and firstEvent), group, service,
 *       minEvents, windowMs, weight (the event's severity weight), info (the string holding the
 *       family's {service, title}).
 * An event's JSON may be '' when it cannot end up in any sample (see light_events_hold): the
 * script then checks that before writing anything, and answers {'resend'} when it does not hold.
 * Returns {status1, incidentId1, status2, ...}. A suppressed family whose weighted volume
 * outgrows the smallest incident opened under the cap is promoted: it takes that one's place
 * in the cap's ranking and opens its own incident (created, promotedFrom set).
 */
export const INGEST_BATCH = `
local prefix, now, sampleCap = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local maxAll, maxService, leftMs = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local G, S, N = tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local GROUP_ARGS, STRING_ARGS = 9, 9 + 2 * G
local EVENT_ARGS, W = STRING_ARGS + S, 5
local SERVICE_KEYS = 12 + 5 * G

-- A profile string is decoded once per call, however many events share it.
local profiles = {}
local function profile(k)
  local p = profiles[k]
  if p == nil then
    local f = {}
    for part in string.gmatch(ARGV[STRING_ARGS + tonumber(k)], '[^,]+') do f[#f + 1] = tonumber(part) end
    p = { shape = f[1], group = f[2], service = f[3], minEvents = f[4], windowMs = f[5], weight = f[6], info = f[7] }
    profiles[k] = p
  end
  return p
end

-- Writes held back until the end of the script or until something reads them.
local stats, samples, dirty, dirtyList, processed = {}, {}, {}, {}, {}
local openIds = {}
local overflowId

local function mark(id)
  if not dirty[id] then dirty[id] = true; dirtyList[#dirtyList + 1] = id end
end

local function flush_stats(id)
  local s = stats[id]
  if not s then return end
  stats[id] = nil
  local statsKey = prefix .. 'incident:' .. id .. ':stats'
  redis.call('HINCRBY', statsKey, 'count', s[1])
  local f = redis.call('HGET', statsKey, 'firstSeen')
  local l = redis.call('HGET', statsKey, 'lastSeen')
  if (not f) or s[2] < f then redis.call('HSET', statsKey, 'firstSeen', s[2]) end
  if (not l) or s[3] > l then redis.call('HSET', statsKey, 'lastSeen', s[3]) end
end

local function flush_sample(id)
  local list = samples[id]
  if not list then return end
  samples[id] = nil
  local eventsKey = prefix .. 'incident:' .. id .. ':events'
  redis.call('LPUSH', eventsKey, unpack(list, math.max(1, #list - sampleCap + 1), #list))
  redis.call('LTRIM', eventsKey, 0, sampleCap - 1)
end

-- Events per minute of their log time (a UTC time's first 16 characters), added up per call.
local rates = {}
local function count_into(id, n, first, last)
  local s = stats[id]
  if s then
    s[1] = s[1] + n
    if first < s[2] then s[2] = first end
    if last > s[3] then s[3] = last end
  else
    stats[id] = {n, first, last}
  end
  local minute = string.sub(last, 1, 16)
  local r = rates[id]
  if not r then r = {}; rates[id] = r end
  r[minute] = (r[minute] or 0) + n
  mark(id)
end

local function flush_rate(id)
  local r = rates[id]
  if not r then return end
  rates[id] = nil
  local rateKey = prefix .. 'incident:' .. id .. ':rate'
  for minute, n in pairs(r) do redis.call('HINCRBY', rateKey, minute, n) end
end

-- The newest sampleCap events pushed are what LPUSH + LTRIM per event would have kept.
local function sample(id, eventJson)
  local list = samples[id]
  if not list then list = {}; samples[id] = list end
  list[#list + 1] = eventJson
  if #list >= 4 * sampleCap then
    local keep = {}
    for i = #list - sampleCap + 1, #list do keep[#keep + 1] = list[i] end
    samples[id] = keep
  end
  mark(id)
end

local function ingest_one(e)
  local groupKey = 12 + 5 * e.group
  local K_OPEN, K_FORMING, K_FORMING_EVENTS, K_LAST, K_SCOPES = groupKey + 1, groupKey + 2, groupKey + 3, groupKey + 4, groupKey + 5
  local serviceKey = SERVICE_KEYS + 2 * e.service
  local K_CAP_SERVICE, K_VOLUME_SERVICE = serviceKey + 1, serviceKey + 2
  local fp = ARGV[GROUP_ARGS + 2 * e.group + 1]
  local scope = ARGV[GROUP_ARGS + 2 * e.group + 2]
  local eventTime, weight = e.time, e.weight

  if e.duplicate then return 'duplicate', '' end
  processed[#processed + 1] = ARGV[2]
  processed[#processed + 1] = e.id

  local id = openIds[fp]
  if id == nil then
    id = redis.call('GET', KEYS[K_OPEN])
    openIds[fp] = id
  end
  if id then
    count_into(id, 1, eventTime, eventTime)
    sample(id, e.json)
    return 'absorbed', id
  end

  local function absorb(into)
    count_into(into, 1, eventTime, eventTime)
    sample(into, e.json)
  end

  local function open_incident(n, first, last, promotedFrom)
    local newId, shape = e.candidateId, ARGV[STRING_ARGS + e.shape]
    -- scalar fields first, so a later write reads the version and state from the record's head
    local json = '{"id":' .. cjson.encode(newId) .. ',' .. string.sub(shape, 2, -2) .. ',"firstEvent":' .. e.json .. '}'
    local previous = redis.call('GET', KEYS[K_LAST])
    if previous then json = string.sub(json, 1, -2) .. ',"previousIncidentId":' .. cjson.encode(previous) .. '}' end
    if promotedFrom then json = string.sub(json, 1, -2) .. ',"promotedFrom":' .. cjson.encode(promotedFrom) .. '}' end
    flush_stats(newId)
    flush_sample(newId)
    redis.call('SET', KEYS[K_OPEN], newId)
    openIds[fp] = newId
    redis.call('SET', prefix .. 'incident:' .. newId, json)
    redis.call('ZADD', KEYS[2], now, newId)
    redis.call('HINCRBY', KEYS[12], cjson.decode(shape)['state'], 1)
    -- per-state index (incidents:state:<state> zset, scored like the incidents zset)
    redis.call('ZADD', prefix .. 'incidents:state:' .. cjson.decode(shape)['state'], now, newId)
    redis.call('SADD', KEYS[3], newId)
    redis.call('HSET', prefix .. 'incident:' .. newId .. ':stats', 'count', 0, 'firstSeen', first, 'lastSeen', last, 'weight', weight)
    count_into(newId, n, first, last)
    return newId
  end

  -- A family suppressed this hour keeps counting into the hour's overflow incident, until it
  -- outgrows the smallest incident opened under the cap that suppressed it.
  if redis.call('SISMEMBER', KEYS[7], fp) == 1 then
    if overflowId == nil then overflowId = redis.call('GET', KEYS[6]) end
    local oid = overflowId
    if oid then
      local volume = tonumber(redis.call('ZINCRBY', KEYS[10], weight, fp))
      local count = redis.call('HINCRBY', KEYS[11], fp .. ':count', 1)
      local byService = maxService > 0 and tonumber(redis.call('GET', KEYS[K_CAP_SERVICE]) or '0') >= maxService
      local ranking = byService and KEYS[K_VOLUME_SERVICE] or KEYS[9]
      -- Ranking scores are lower bounds (set when an incident opened; its count only grows), so
      -- the lightest is found by refreshing the head until it holds: absorbing stays one HINCRBY.
      local smallest
      for _ = 1, 8 do
        local head = redis.call('ZRANGE', ranking, 0, 0, 'WITHSCORES')
        if not head[1] then break end
        flush_stats(head[1])
        local statsKey = prefix .. 'incident:' .. head[1] .. ':stats'
        local current = tonumber(redis.call('HGET', statsKey, 'count') or '0') * tonumber(redis.call('HGET', statsKey, 'weight') or '1')
        if current <= tonumber(head[2]) then
          smallest = head
          break
        end
        redis.call('ZADD', ranking, current, head[1])
      end
      if smallest and volume > tonumber(smallest[2]) then
        redis.call('ZREM', ranking, smallest[1])
        redis.call('SREM', KEYS[7], fp)
        redis.call('ZREM', KEYS[10], fp)
        local first = redis.call('HGET', KEYS[11], fp .. ':first') or eventTime
        redis.call('HDEL', KEYS[11], fp, fp .. ':count', fp .. ':first', fp .. ':event')
        -- Its events so far leave the overflow's count for its own: counts add up, none twice.
        redis.call('HINCRBY', prefix .. 'incident:' .. oid .. ':stats', 'count', 1 - count)
        local newId = open_incident(count, first, eventTime, oid)
        sample(newId, e.json)
        redis.call('ZADD', KEYS[9], volume, newId)
        redis.call('ZADD', KEYS[K_VOLUME_SERVICE], volume, newId)
        return 'created', newId
      end
      absorb(oid)
      return 'overflow', oid
    end
  end

  -- No open incident: the family forms until its opening rule is met (N events within the window).
  -- From here on the family holds state under its fingerprint, which a family merge must find.
  if scope ~= '' then
    redis.call('SADD', KEYS[K_SCOPES], scope)
    redis.call('PEXPIRE', KEYS[K_SCOPES], 2592000000)
  end
  local n, first, last = 1, eventTime, eventTime
  if e.minEvents > 1 then
    local started = redis.call('HGET', KEYS[K_FORMING], 'startMs')
    if started and now - tonumber(started) > e.windowMs then
      redis.call('DEL', KEYS[K_FORMING], KEYS[K_FORMING_EVENTS])
      started = false
    end
    if not started then
      redis.call('HSET', KEYS[K_FORMING], 'startMs', now, 'firstSeen', eventTime, 'lastSeen', eventTime)
      redis.call('PEXPIRE', KEYS[K_FORMING], e.windowMs)
    end
    n = redis.call('HINCRBY', KEYS[K_FORMING], 'count', 1)
    first = redis.call('HGET', KEYS[K_FORMING], 'firstSeen')
    last = redis.call('HGET', KEYS[K_FORMING], 'lastSeen')
    if eventTime < first then first = eventTime; redis.call('HSET', KEYS[K_FORMING], 'firstSeen', first) end
    if eventTime > last then last = eventTime; redis.call('HSET', KEYS[K_FORMING], 'lastSeen', last) end
    redis.call('LPUSH', KEYS[K_FORMING_EVENTS], e.json)
    redis.call('LTRIM', KEYS[K_FORMING_EVENTS], 0, sampleCap - 1)
    redis.call('PEXPIRE', KEYS[K_FORMING_EVENTS], e.windowMs)
    if n < e.minEvents then return 'held', '' end
  end

  local function move_forming_events(into)
    local eventsKey = prefix .. 'incident:' .. into .. ':events'
    if redis.call('EXISTS', KEYS[K_FORMING_EVENTS]) == 1 then
      flush_sample(into)
      for _, ev in ipairs(redis.call('LRANGE', KEYS[K_FORMING_EVENTS], 0, -1)) do redis.call('RPUSH', eventsKey, ev) end
      redis.call('LTRIM', eventsKey, 0, sampleCap - 1)
    else
      sample(into, e.json)
    end
    redis.call('DEL', KEYS[K_FORMING], KEYS[K_FORMING_EVENTS])
  end

  local openedAll = tonumber(redis.call('GET', KEYS[5]) or '0')
  local openedService = tonumber(redis.call('GET', KEYS[K_CAP_SERVICE]) or '0')
  if (maxAll > 0 and openedAll >= maxAll) or (maxService > 0 and openedService >= maxService) then
    if overflowId == nil then overflowId = redis.call('GET', KEYS[6]) end
    local oid = overflowId
    if not oid then
      local template = redis.call('GET', KEYS[8])
      if not template then return nil, 'overflow template missing for ' .. KEYS[8] end
      oid = cjson.decode(template)['id']
      redis.call('SET', KEYS[6], oid)
      overflowId = oid
      redis.call('SET', prefix .. 'incident:' .. oid, template)
      redis.call('ZADD', KEYS[2], now, oid)
      redis.call('HINCRBY', KEYS[12], cjson.decode(template)['state'], 1)
      -- per-state index (incidents:state:<state> zset, scored like the incidents zset)
      redis.call('ZADD', prefix .. 'incidents:state:' .. cjson.decode(template)['state'], now, oid)
    end
    local info = ARGV[STRING_ARGS + e.info]
    redis.call('SADD', KEYS[7], fp)
    redis.call('PEXPIRE', KEYS[7], leftMs + 7200000)
    redis.call('ZADD', KEYS[10], weight * n, fp)
    redis.call('HSET', KEYS[11], fp, info, fp .. ':count', n, fp .. ':first', first, fp .. ':event', e.json)
    redis.call('PEXPIRE', KEYS[10], leftMs + 7200000)
    redis.call('PEXPIRE', KEYS[11], leftMs + 7200000)
    count_into(oid, n, first, last)
    move_forming_events(oid)
    return 'overflow', oid
  end

  redis.call('INCR', KEYS[5])
  redis.call('PEXPIRE', KEYS[5], leftMs + 60000)
  redis.call('INCR', KEYS[K_CAP_SERVICE])
  redis.call('PEXPIRE', KEYS[K_CAP_SERVICE], leftMs + 60000)
  id = open_incident(n, first, last, false)
  redis.call('ZADD', KEYS[9], weight * n, id)
  redis.call('ZADD', KEYS[K_VOLUME_SERVICE], weight * n, id)
  redis.call('PEXPIRE', KEYS[9], leftMs + 60000)
  redis.call('PEXPIRE', KEYS[K_VOLUME_SERVICE], leftMs + 60000)
  move_forming_events(id)
  return 'created', id
end

local function flush_all()
  for i = 1, #processed, 1000 do redis.call('ZADD', KEYS[1], 'NX', unpack(processed, i, math.min(i + 999, #processed))) end
  processed = {}
  local activity = {}
  for _, id in ipairs(dirtyList) do
    flush_stats(id)
    flush_rate(id)
    flush_sample(id)
    activity[#activity + 1] = now
    activity[#activity + 1] = id
    if #activity >= 1000 then redis.call('ZADD', KEYS[4], unpack(activity)); activity = {} end
  end
  if #activity > 0 then redis.call('ZADD', KEYS[4], unpack(activity)) end
end

-- Which events are duplicates, read before anything is written: an id Redis already holds, or
-- one seen earlier in this call. Their ids are recorded with the other writes, at the end.
local duplicate, firstOf = {}, {}
for from = 0, N - 1, 500 do
  local ids = {}
  for i = from, math.min(from + 499, N - 1) do ids[#ids + 1] = ARGV[EVENT_ARGS + i * W + 1] end
  local scores = redis.call('ZMSCORE', KEYS[1], unpack(ids))
  for k, id in ipairs(ids) do
    local i = from + k - 1
    duplicate[i] = scores[k] ~= false or firstOf[id] ~= nil
    if firstOf[id] == nil then firstOf[id] = i end
  end
end

-- An event sent without its JSON ('') is one the client expects never to be sampled. Checked
-- before anything is written: its fingerprint is open now (so every event of it in this call is
-- absorbed there, nothing in the call closes it) and at least sampleCap events of that
-- fingerprint that push a sample (not duplicates) follow it here, so it can never be among the
-- newest sampleCap kept. Otherwise nothing is done and the client sends the batch whole.
local function light_events_hold()
  local open, after = {}, {}
  for i = N - 1, 0, -1 do
    local b = EVENT_ARGS + i * W
    local g = profile(ARGV[b + 5]).group
    local fp = ARGV[GROUP_ARGS + 2 * g + 1]
    if ARGV[b + 3] == '' and not duplicate[i] then
      if open[fp] == nil then open[fp] = redis.call('EXISTS', KEYS[12 + 5 * g + 1]) == 1 end
      if not open[fp] or (after[fp] or 0) < sampleCap then return false end
    end
    if not duplicate[i] then after[fp] = (after[fp] or 0) + 1 end
  end
  return true
end

if not light_events_hold() then return {'resend'} end

local out = {}
for i = 0, N - 1 do
  local b = EVENT_ARGS + i * W
  local p = profile(ARGV[b + 5])
  local status, id = ingest_one({
    id = ARGV[b + 1], time = ARGV[b + 2], json = ARGV[b + 3], candidateId = ARGV[b + 4], shape = p.shape,
    group = p.group, service = p.service, minEvents = p.minEvents, windowMs = p.windowMs, weight = p.weight, info = p.info,
    duplicate = duplicate[i],
  })
  if not status then
    -- What the events before this one did stays (each was its own step before); it is written, then the error returned.
    flush_all()
    return redis.error_reply(id)
  end
  out[#out + 1] = status
  out[#out + 1] = id
end
flush_all()
return out
`;
