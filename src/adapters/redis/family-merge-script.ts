/**
 * When the miner learns that two message families are one, everything Redis holds under the
 * retired family moves to the survivor in one script, so no event is lost or counted twice
 * whatever happens to the worker: in every scope (service, exception, frames) the retired
 * family's open incident folds into the survivor's (counts add, samples move, the retired one
 * points to the survivor), or, when the survivor has none, becomes the survivor's; forming
 * events and overflow membership follow. The record updates that say so (and their audit)
 * are journaled in `merges:pending` and finished by the store, idempotently.
 *
 * KEYS: 1 family:<from>:scopes, 2 family:<to>:scopes, 3 merged hash (incident -> incident it
 *       joined), 4 merges:pending hash (incident -> JSON of the record change to make),
 *       5 activity zset, 6 pending-analysis set, 7 the hour's overflow families set
 * ARGV: 1 prefix, 2 from family, 3 to family, 4 sampleCap, 5 nowMs
 * Returns the number of scopes moved.
 */
const MERGE_COMMON = `

local prefix, sampleCap, now = ARGV[1], tonumber(ARGV[4]), ARGV[5]
local function events_key(id) return prefix .. 'incident:' .. id .. ':events' end
local function stats_key(id) return prefix .. 'incident:' .. id .. ':stats' end

local function append_events(fromList, toList)
  for _, e in ipairs(redis.call('LRANGE', fromList, 0, sampleCap - 1)) do redis.call('RPUSH', toList, e) end
  redis.call('LTRIM', toList, 0, sampleCap - 1)
  redis.call('DEL', fromList)
end

local function count_into(id, n, first, last)
  local key = stats_key(id)
  redis.call('HINCRBY', key, 'count', n)
  local f = redis.call('HGET', key, 'firstSeen')
  local l = redis.call('HGET', key, 'lastSeen')
  if first and ((not f) or first < f) then redis.call('HSET', key, 'firstSeen', first) end
  if last and ((not l) or last > l) then redis.call('HSET', key, 'lastSeen', last) end
  redis.call('ZADD', KEYS[5], now, id)
end

-- Moves everything held under fromFp to toFp; the journal says what the records must show.
local function merge_fp(fromFp, toFp, to)
  local fromOpen, toOpen = prefix .. 'open:' .. fromFp, prefix .. 'open:' .. toFp
  local gone, kept = redis.call('GET', fromOpen), redis.call('GET', toOpen)
  if gone and kept and gone ~= kept then
    local stats = redis.call('HGETALL', stats_key(gone))
    local h = {}
    for i = 1, #stats, 2 do h[stats[i]] = stats[i + 1] end
    count_into(kept, tonumber(h['count'] or '0'), h['firstSeen'], h['lastSeen'])
    -- the retired incident's per-minute rate joins the survivor's
    local rate = redis.call('HGETALL', prefix .. 'incident:' .. gone .. ':rate')
    for i = 1, #rate, 2 do redis.call('HINCRBY', prefix .. 'incident:' .. kept .. ':rate', rate[i], tonumber(rate[i + 1])) end
    append_events(events_key(gone), events_key(kept))
    redis.call('HSET', KEYS[3], gone, kept)
    redis.call('HSET', KEYS[4], gone, cjson.encode({into = kept, family = to, fingerprint = toFp, at = now}))
    redis.call('SREM', KEYS[6], gone)
    redis.call('ZREM', KEYS[5], gone)
    redis.call('DEL', fromOpen)
  elseif gone then
    redis.call('SET', toOpen, gone)
    redis.call('DEL', fromOpen)
    redis.call('HSET', KEYS[4], gone, cjson.encode({family = to, fingerprint = toFp, at = now}))
    kept = gone
  end
  local fromForm, toForm = prefix .. 'forming:' .. fromFp, prefix .. 'forming:' .. toFp
  -- The survivor was still forming but the retired family had opened: its events join the incident.
  if kept and redis.call('EXISTS', toForm) == 1 then
    count_into(kept, tonumber(redis.call('HGET', toForm, 'count') or '0'), redis.call('HGET', toForm, 'firstSeen'), redis.call('HGET', toForm, 'lastSeen'))
    append_events(toForm .. ':events', events_key(kept))
    redis.call('DEL', toForm)
  end
  if redis.call('EXISTS', fromForm) == 1 then
    local n = tonumber(redis.call('HGET', fromForm, 'count') or '0')
    local first, last = redis.call('HGET', fromForm, 'firstSeen'), redis.call('HGET', fromForm, 'lastSeen')
    if kept then
      count_into(kept, n, first, last)
      append_events(fromForm .. ':events', events_key(kept))
    else
      local start = redis.call('HGET', fromForm, 'startMs')
      local ttl = redis.call('PTTL', fromForm)
      local into = redis.call('HGET', toForm, 'startMs')
      if (not into) or tonumber(start) < tonumber(into) then redis.call('HSET', toForm, 'startMs', start) end
      redis.call('HINCRBY', toForm, 'count', n)
      local f, l = redis.call('HGET', toForm, 'firstSeen'), redis.call('HGET', toForm, 'lastSeen')
      if first and ((not f) or first < f) then redis.call('HSET', toForm, 'firstSeen', first) end
      if last and ((not l) or last > l) then redis.call('HSET', toForm, 'lastSeen', last) end
      append_events(fromForm .. ':events', toForm .. ':events')
      if ttl > 0 and redis.call('PTTL', toForm) < ttl then
        redis.call('PEXPIRE', toForm, ttl)
        redis.call('PEXPIRE', toForm .. ':events', ttl)
      end
    end
    redis.call('DEL', fromForm)
  end
  local fromLast, toLast = prefix .. 'last:' .. fromFp, prefix .. 'last:' .. toFp
  if redis.call('EXISTS', toLast) == 0 and redis.call('EXISTS', fromLast) == 1 then
    redis.call('SET', toLast, redis.call('GET', fromLast), 'PX', math.max(1, redis.call('PTTL', fromLast)))
  end
  if redis.call('SREM', KEYS[7], fromFp) == 1 then redis.call('SADD', KEYS[7], toFp) end
end
`;

export const MERGE_FAMILY = MERGE_COMMON + `
local from, to = ARGV[2], ARGV[3]
if from == to then return 0 end
local moved = 0
for _, scope in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  merge_fp(scope .. ':' .. from, scope .. ':' .. to, to)
  redis.call('SADD', KEYS[2], scope)
  moved = moved + 1
end
redis.call('DEL', KEYS[1])
if moved > 0 then redis.call('PEXPIRE', KEYS[2], 2592000000) end
return moved
`;

/**
 * One incident's fingerprint folded into another's, on an approver's Merge: the same moves.
 * KEYS: 1, 2 unused (any key under the prefix), then as MERGE_FAMILY. ARGV: 1 prefix, 2 from fingerprint, 3 to fingerprint,
 *       4 sampleCap, 5 nowMs, 6 the family the journal records for the survivor.
 */
export const MERGE_FINGERPRINT = MERGE_COMMON + `
if ARGV[2] == ARGV[3] then return 0 end
merge_fp(ARGV[2], ARGV[3], ARGV[6])
return 1
`;
