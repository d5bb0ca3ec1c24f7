-- A family's open incident: read once per call, and opened from the event's candidate record.
-- Uses: prefix, now, K.incidents, K.byState, K.pending (call.lua); shared (layout.lua);
-- count_into, flush_stats, flush_sample (held-writes.lua).
-- Defines: open_of, open_incident.
local openIds = {}

-- The id of group's open incident, or false.
local function open_of(group)
  local id = openIds[group.fp]
  if id == nil then
    id = redis.call('GET', group.open)
    openIds[group.fp] = id
  end
  return id
end

-- Opens event e's candidate incident for group with n events seen from first to last; it points
-- to the family's last closed incident, and to the overflow incident it was promoted from, if any.
local function open_incident(e, group, n, first, last, promotedFrom)
  local newId, shape = e.candidateId, shared(e.shape)
  local state = cjson.decode(shape)['state']
  -- scalar fields first, so a later write reads the version and state from the record's head
  local json = '{"id":' .. cjson.encode(newId) .. ',' .. string.sub(shape, 2, -2) .. ',"firstEvent":' .. e.json .. '}'
  local previous = redis.call('GET', group.last)
  if previous then json = string.sub(json, 1, -2) .. ',"previousIncidentId":' .. cjson.encode(previous) .. '}' end
  if promotedFrom then json = string.sub(json, 1, -2) .. ',"promotedFrom":' .. cjson.encode(promotedFrom) .. '}' end
  flush_stats(newId)
  flush_sample(newId)
  redis.call('SET', group.open, newId)
  openIds[group.fp] = newId
  redis.call('SET', prefix .. 'incident:' .. newId, json)
  redis.call('ZADD', K.incidents, now, newId)
  redis.call('HINCRBY', K.byState, state, 1)
  -- per-state index (incidents:state:<state> zset, scored like the incidents zset)
  redis.call('ZADD', prefix .. 'incidents:state:' .. state, now, newId)
  redis.call('SADD', K.pending, newId)
  redis.call('HSET', prefix .. 'incident:' .. newId .. ':stats', 'count', 0, 'firstSeen', first, 'lastSeen', last, 'weight', e.weight)
  count_into(newId, n, first, last)
  return newId
end
