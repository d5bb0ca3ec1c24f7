-- The call: each event, in input order, takes exactly the path it would take in a call of its
-- own (duplicate | held | created | absorbed | overflow); Redis runs the call without
-- interleaving, as it ran each event's. Returns {status1, incidentId1, status2, ...}, or
-- {'resend'} when an event sent without its JSON might have been sampled.
-- Uses every part before it.

local function ingest_one(e, duplicate)
  if duplicate then return 'duplicate', '' end
  record_processed(e.id)
  local group, service = group_of(e.group), service_of(e.service)
  local id = open_of(group)
  if id then
    count_into(id, 1, e.time, e.time)
    sample(id, e.json)
    return 'absorbed', id
  end
  local status, into = count_suppressed(e, group, service)
  if status then return status, into end
  local n, first, last = form(e, group)
  if not n then return 'held', '' end
  if cap_reached(service) then return enter_overflow(e, group, n, first, last) end
  id = open_incident(e, group, n, first, last, false)
  count_opened(service, id, e.weight * n)
  move_forming_events(e, group, id)
  return 'created', id
end

local events = {}
for i = 0, N - 1 do events[i] = event_at(i) end
local duplicate = find_duplicates(events)
if not light_events_hold(events, duplicate) then return {'resend'} end

local out = {}
for i = 0, N - 1 do
  local status, id = ingest_one(events[i], duplicate[i])
  if not status then
    -- What the events before this one did stays (each was its own step before): it is written, then the error returned.
    flush_all()
    return redis.error_reply(id)
  end
  out[#out + 1] = status
  out[#out + 1] = id
end
flush_all()
return out
