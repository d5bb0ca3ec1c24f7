-- The hourly caps on incidents opened, overall (maxAll) and per service (maxService; 0 = none),
-- and the rankings of the hour's incidents by weighted events, which a suppressed family must
-- outgrow to open an incident of its own.
-- Uses: prefix, maxAll, maxService, leftMs, K.cap, K.capVolume (call.lua); flush_stats (held-writes.lua).
-- Defines: cap_reached, service_cap_full, count_opened, lightest.

local function opened(key)
  return tonumber(redis.call('GET', key) or '0')
end

local function service_cap_full(service)
  return maxService > 0 and opened(service.cap) >= maxService
end

local function cap_reached(service)
  local all, own = opened(K.cap), opened(service.cap)
  return (maxAll > 0 and all >= maxAll) or (maxService > 0 and own >= maxService)
end

-- Incident id opened this hour under service's caps, ranked at volume.
local function count_opened(service, id, volume)
  redis.call('INCR', K.cap)
  redis.call('PEXPIRE', K.cap, leftMs + 60000)
  redis.call('INCR', service.cap)
  redis.call('PEXPIRE', service.cap, leftMs + 60000)
  redis.call('ZADD', K.capVolume, volume, id)
  redis.call('ZADD', service.volume, volume, id)
  redis.call('PEXPIRE', K.capVolume, leftMs + 60000)
  redis.call('PEXPIRE', service.volume, leftMs + 60000)
end

-- The lightest incident of a ranking, as {id, volume}, or nil. Ranking scores are lower bounds
-- (set when an incident opened; its count only grows), so the head is refreshed until it holds
-- (at most 8 times): counting an event into an incident stays one HINCRBY.
local function lightest(ranking)
  for _ = 1, 8 do
    local head = redis.call('ZRANGE', ranking, 0, 0, 'WITHSCORES')
    if not head[1] then return nil end
    flush_stats(head[1])
    local statsKey = prefix .. 'incident:' .. head[1] .. ':stats'
    local current = tonumber(redis.call('HGET', statsKey, 'count') or '0') * tonumber(redis.call('HGET', statsKey, 'weight') or '1')
    if current <= tonumber(head[2]) then return head end
    redis.call('ZADD', ranking, current, head[1])
  end
  return nil
end
