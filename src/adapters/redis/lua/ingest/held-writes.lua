-- Writes held back until the end of the call or until something reads them: what the events of
-- a call repeat (counts, first/last seen, per-minute rates, samples, activity, processed ids) is
-- added up here and written once per incident.
-- Uses: prefix, now, sampleCap, K.processed, K.activity (call.lua).
-- Defines: count_into, sample, record_processed, flush_stats, flush_sample, flush_all.
local stats, samples, rates, dirty, dirtyList, processed = {}, {}, {}, {}, {}, {}

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

local function flush_rate(id)
  local r = rates[id]
  if not r then return end
  rates[id] = nil
  local rateKey = prefix .. 'incident:' .. id .. ':rate'
  for minute, n in pairs(r) do redis.call('HINCRBY', rateKey, minute, n) end
end

-- n events, seen from first to last (UTC times), counted into incident id; the events per minute
-- of their log time (a time's first 16 characters) are counted at last's minute.
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

local function record_processed(eventId)
  processed[#processed + 1] = now
  processed[#processed + 1] = eventId
end

local function flush_all()
  for i = 1, #processed, 1000 do redis.call('ZADD', K.processed, 'NX', unpack(processed, i, math.min(i + 999, #processed))) end
  processed = {}
  local activity = {}
  for _, id in ipairs(dirtyList) do
    flush_stats(id)
    flush_rate(id)
    flush_sample(id)
    activity[#activity + 1] = now
    activity[#activity + 1] = id
    if #activity >= 1000 then redis.call('ZADD', K.activity, unpack(activity)); activity = {} end
  end
  if #activity > 0 then redis.call('ZADD', K.activity, unpack(activity)) end
  dirty, dirtyList = {}, {}
end
