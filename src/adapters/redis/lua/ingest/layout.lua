-- What follows the scalars: G fingerprint groups, S shared strings and N events.
-- Uses: G, S, N (call.lua). Defines: shared, profile, group_of, service_of, event_at.
--
-- KEYS: 5 per group g after the 12 fixed ones (open:<fp>, forming:<fp>, forming:<fp>:events,
-- last:<fp>, family:<family>:scopes), then 2 per service (cap:<service>:<hour> and its volume zset).
-- ARGV: per group its fingerprint and scope; the S strings; per event (5 each) its id, time,
-- JSON, candidate id and profile (the number of the string holding it).
local GROUP_ARGS, STRING_ARGS = 9, 9 + 2 * G
local EVENT_ARGS, EVENT_WIDTH = STRING_ARGS + S, 5
local SERVICE_KEYS = 12 + 5 * G

local function shared(k)
  return ARGV[STRING_ARGS + k]
end

-- A profile is what the events of a family share, as comma-separated numbers: shape (the
-- string holding the candidate record's JSON without id and firstEvent), group, service,
-- minEvents, windowMs, weight (the event's severity weight), info (the string holding the
-- family's {service, title}). Decoded once per call, however many events share it.
local profiles = {}
local function profile(k)
  local p = profiles[k]
  if p == nil then
    local f = {}
    for part in string.gmatch(shared(tonumber(k)), '[^,]+') do f[#f + 1] = tonumber(part) end
    p = { shape = f[1], group = f[2], service = f[3], minEvents = f[4], windowMs = f[5], weight = f[6], info = f[7] }
    profiles[k] = p
  end
  return p
end

local groups = {}
local function group_of(g)
  local group = groups[g]
  if group == nil then
    local k = 12 + 5 * g
    group = {
      fp = ARGV[GROUP_ARGS + 2 * g + 1], scope = ARGV[GROUP_ARGS + 2 * g + 2],
      open = KEYS[k + 1], forming = KEYS[k + 2], formingEvents = KEYS[k + 3], last = KEYS[k + 4], scopes = KEYS[k + 5],
    }
    groups[g] = group
  end
  return group
end

local services = {}
local function service_of(s)
  local service = services[s]
  if service == nil then
    local k = SERVICE_KEYS + 2 * s
    service = { cap = KEYS[k + 1], volume = KEYS[k + 2] }
    services[s] = service
  end
  return service
end

-- Event i (0-based): its own fields and its profile's.
local function event_at(i)
  local b = EVENT_ARGS + i * EVENT_WIDTH
  local p = profile(ARGV[b + 5])
  return {
    id = ARGV[b + 1], time = ARGV[b + 2], json = ARGV[b + 3], candidateId = ARGV[b + 4], shape = p.shape,
    group = p.group, service = p.service, minEvents = p.minEvents, windowMs = p.windowMs, weight = p.weight, info = p.info,
  }
end
