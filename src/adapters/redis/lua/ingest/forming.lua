-- A family with no open incident forms until its opening rule is met: minEvents events within
-- windowMs. Its events wait in a list of their own, which moves into the incident that opens.
-- Uses: prefix, now, sampleCap (call.lua); sample, flush_sample (held-writes.lua).
-- Defines: form, move_forming_events.

-- Counts event e into group's forming family. Returns the family's count, first and last seen
-- once the rule is met (at once when minEvents is 1), or nil while it is held.
local function form(e, group)
  -- From here on the family holds state under its fingerprint, which a family merge must find.
  if group.scope ~= '' then
    redis.call('SADD', group.scopes, group.scope)
    redis.call('PEXPIRE', group.scopes, 2592000000)
  end
  local eventTime = e.time
  if e.minEvents <= 1 then return 1, eventTime, eventTime end
  local started = redis.call('HGET', group.forming, 'startMs')
  if started and now - tonumber(started) > e.windowMs then
    redis.call('DEL', group.forming, group.formingEvents)
    started = false
  end
  if not started then
    redis.call('HSET', group.forming, 'startMs', now, 'firstSeen', eventTime, 'lastSeen', eventTime)
    redis.call('PEXPIRE', group.forming, e.windowMs)
  end
  local n = redis.call('HINCRBY', group.forming, 'count', 1)
  local first = redis.call('HGET', group.forming, 'firstSeen')
  local last = redis.call('HGET', group.forming, 'lastSeen')
  if eventTime < first then first = eventTime; redis.call('HSET', group.forming, 'firstSeen', first) end
  if eventTime > last then last = eventTime; redis.call('HSET', group.forming, 'lastSeen', last) end
  redis.call('LPUSH', group.formingEvents, e.json)
  redis.call('LTRIM', group.formingEvents, 0, sampleCap - 1)
  redis.call('PEXPIRE', group.formingEvents, e.windowMs)
  if n < e.minEvents then return nil end
  return n, first, last
end

-- The forming family's events become incident into's sample (event e's alone when none waited),
-- and the family's forming state is cleared.
local function move_forming_events(e, group, into)
  local eventsKey = prefix .. 'incident:' .. into .. ':events'
  if redis.call('EXISTS', group.formingEvents) == 1 then
    flush_sample(into)
    for _, ev in ipairs(redis.call('LRANGE', group.formingEvents, 0, -1)) do redis.call('RPUSH', eventsKey, ev) end
    redis.call('LTRIM', eventsKey, 0, sampleCap - 1)
  else
    sample(into, e.json)
  end
  redis.call('DEL', group.forming, group.formingEvents)
end
