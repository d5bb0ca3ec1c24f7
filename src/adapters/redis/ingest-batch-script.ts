import { INGEST_PARTS, luaParts } from './lua-scripts.js';

/**
 * Ingest of a batch of events in one script call: each event takes exactly the path it took
 * when it was a call of its own (duplicate | held | created | absorbed | overflow, in input
 * order), but what events of a batch repeat is done once: an open incident's id is read once per
 * fingerprint, and counts, first/last seen, samples and activity are added up in the script and
 * written once per incident, before anything in the script reads them and at its end. Redis
 * runs the script without interleaving, as it ran each event's.
 *
 * The script is lua/ingest/*.lua joined, one file per duty: call (scalars and fixed keys), layout
 * (groups, services, shared strings, events), held-writes, duplicates, forming (the opening
 * rule), open-incident, caps, overflow (suppressed families and their promotion), then ingest
 * (the path of each event). Every key it touches is under the store's prefix, so with a hash
 * tag in the prefix (a cell's, see domain/cells.ts) one call touches one cluster slot.
 *
 * KEYS: the 12 fixed keys (call.lua), then 5 per fingerprint group, then 2 per service (layout.lua).
 * ARGV: prefix, nowMs, sampleCap, maxNewPerHour (0 = none), maxNewPerServiceHour (0 = none),
 * msLeftInHour, G groups, S shared strings, N events; then per group its fingerprint and scope,
 * the S strings, and 5 per event (layout.lua). An event's JSON may be '' when it cannot end up in
 * any sample (duplicates.lua). Returns {status1, incidentId1, status2, ...}, or {'resend'}.
 */
export const INGEST_BATCH = luaParts('ingest', INGEST_PARTS);
