-- The hour's overflow incident: families suppressed by a cap count into it, until one outgrows
-- the lightest incident opened under the cap that suppressed it and opens its own.
-- Uses: prefix, now, leftMs, K (call.lua); shared (layout.lua); count_into, sample (held-writes.lua);
-- move_forming_events (forming.lua); open_incident (open-incident.lua);
-- service_cap_full, lightest (caps.lua).
-- Defines: count_suppressed, enter_overflow.
local overflowId

local function overflow_id()
  if overflowId == nil then overflowId = redis.call('GET', K.overflowOpen) end
  return overflowId
end

-- Event e of a family suppressed this hour: 'overflow' and the overflow incident it counted
-- into, or 'created' and the incident it was promoted to; nil when the family is not suppressed.
local function count_suppressed(e, group, service)
  if redis.call('SISMEMBER', K.overflowFamilies, group.fp) == 0 then return nil end
  local oid = overflow_id()
  if not oid then return nil end
  local fp = group.fp
  local volume = tonumber(redis.call('ZINCRBY', K.overflowVolume, e.weight, fp))
  local count = redis.call('HINCRBY', K.overflowInfo, fp .. ':count', 1)
  -- The cap that suppresses it now: its service's when that one is full, else the overall one.
  local ranking = service_cap_full(service) and service.volume or K.capVolume
  local smallest = lightest(ranking)
  if smallest and volume > tonumber(smallest[2]) then
    redis.call('ZREM', ranking, smallest[1])
    redis.call('SREM', K.overflowFamilies, fp)
    redis.call('ZREM', K.overflowVolume, fp)
    local first = redis.call('HGET', K.overflowInfo, fp .. ':first') or e.time
    redis.call('HDEL', K.overflowInfo, fp, fp .. ':count', fp .. ':first', fp .. ':event')
    -- Its events so far leave the overflow's count for its own: counts add up, none twice.
    redis.call('HINCRBY', prefix .. 'incident:' .. oid .. ':stats', 'count', 1 - count)
    local newId = open_incident(e, group, count, first, e.time, oid)
    sample(newId, e.json)
    redis.call('ZADD', K.capVolume, volume, newId)
    redis.call('ZADD', service.volume, volume, newId)
    return 'created', newId
  end
  count_into(oid, 1, e.time, e.time)
  sample(oid, e.json)
  return 'overflow', oid
end

-- A family whose opening rule was met (n events from first to last) while a cap is reached: it
-- is suppressed for the rest of the hour, and its events count into the overflow incident,
-- which opens from its template with the first one. Returns 'overflow' and that incident, or
-- nil and an error when the template is missing.
local function enter_overflow(e, group, n, first, last)
  local oid = overflow_id()
  if not oid then
    local template = redis.call('GET', K.overflowTemplate)
    if not template then return nil, 'overflow template missing for ' .. K.overflowTemplate end
    local record = cjson.decode(template)
    oid = record['id']
    redis.call('SET', K.overflowOpen, oid)
    overflowId = oid
    redis.call('SET', prefix .. 'incident:' .. oid, template)
    redis.call('ZADD', K.incidents, now, oid)
    redis.call('HINCRBY', K.byState, record['state'], 1)
    -- per-state index (incidents:state:<state> zset, scored like the incidents zset)
    redis.call('ZADD', prefix .. 'incidents:state:' .. record['state'], now, oid)
  end
  local fp = group.fp
  redis.call('SADD', K.overflowFamilies, fp)
  redis.call('PEXPIRE', K.overflowFamilies, leftMs + 7200000)
  redis.call('ZADD', K.overflowVolume, e.weight * n, fp)
  redis.call('HSET', K.overflowInfo, fp, shared(e.info), fp .. ':count', n, fp .. ':first', first, fp .. ':event', e.json)
  redis.call('PEXPIRE', K.overflowVolume, leftMs + 7200000)
  redis.call('PEXPIRE', K.overflowInfo, leftMs + 7200000)
  count_into(oid, n, first, last)
  move_forming_events(e, group, oid)
  return 'overflow', oid
end
