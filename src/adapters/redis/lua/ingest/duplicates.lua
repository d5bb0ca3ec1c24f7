-- Which events of the call are duplicates, read before anything is written: an id Redis already
-- holds, or one seen earlier in this call. And whether the events sent without their JSON may go so.
-- Uses: N, sampleCap, K.processed (call.lua); group_of (layout.lua).
-- Defines: find_duplicates, light_events_hold.

-- events: the call's events (0-based, from event_at). Returns duplicate[i] for each.
local function find_duplicates(events)
  local duplicate, firstOf = {}, {}
  for from = 0, N - 1, 500 do
    local ids = {}
    for i = from, math.min(from + 499, N - 1) do ids[#ids + 1] = events[i].id end
    local scores = redis.call('ZMSCORE', K.processed, unpack(ids))
    for k, id in ipairs(ids) do
      local i = from + k - 1
      duplicate[i] = scores[k] ~= false or firstOf[id] ~= nil
      if firstOf[id] == nil then firstOf[id] = i end
    end
  end
  return duplicate
end

-- An event sent without its JSON ('') is one the client expects never to be sampled. That holds
-- when its fingerprint is open now (so every event of it in this call is absorbed there: nothing
-- in the call closes it) and at least sampleCap events of that fingerprint that push a sample
-- (not duplicates) follow it here, so it can never be among the newest sampleCap kept. When it
-- does not hold, nothing may be written: the client sends the call again with every JSON.
local function light_events_hold(events, duplicate)
  local open, after = {}, {}
  for i = N - 1, 0, -1 do
    local e = events[i]
    local group = group_of(e.group)
    local fp = group.fp
    if e.json == '' and not duplicate[i] then
      if open[fp] == nil then open[fp] = redis.call('EXISTS', group.open) == 1 end
      if not open[fp] or (after[fp] or 0) < sampleCap then return false end
    end
    if not duplicate[i] then after[fp] = (after[fp] or 0) + 1 end
  end
  return true
end
