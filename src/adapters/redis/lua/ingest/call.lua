-- The call's scalars and fixed keys (ingest-batch-args.ts lays them out).
-- Defines: prefix, now, sampleCap, maxAll, maxService, leftMs, G, S, N, K.
local prefix, now, sampleCap = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local maxAll, maxService, leftMs = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local G, S, N = tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local K = {
  processed = KEYS[1],        -- zset: event id -> when it was ingested
  incidents = KEYS[2],        -- zset: incident id -> when it opened
  pending = KEYS[3],          -- set: incidents awaiting analysis
  activity = KEYS[4],         -- zset: incident id -> when an event was last counted into it
  cap = KEYS[5],              -- counter: incidents opened this hour
  overflowOpen = KEYS[6],     -- the hour's overflow incident id
  overflowFamilies = KEYS[7], -- set: fingerprints suppressed this hour
  overflowTemplate = KEYS[8], -- the overflow incident's record, to create
  capVolume = KEYS[9],        -- zset: incidents opened this hour -> a lower bound of their weighted events
  overflowVolume = KEYS[10],  -- zset: suppressed fingerprint -> weighted events
  overflowInfo = KEYS[11],    -- hash: <fp> -> {service,title}, <fp>:count, <fp>:first, <fp>:event
  byState = KEYS[12],         -- hash: state -> incidents in it
}
