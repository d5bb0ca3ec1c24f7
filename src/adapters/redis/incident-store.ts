import type { RedisClient } from './connect.js';
import { AuditEvent, PIPELINE_ACTOR } from '../../domain/audit.js';
import { ErrorEvent } from '../../domain/event.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { Incident, type IncidentState } from '../../domain/incident.js';
import { hourOf, HOUR_MS, isOverflowFingerprint, overflowFingerprint } from '../../domain/storm-policy.js';
import { MERGE_FAMILY } from './family-merge-script.js';
import { finishMerges, resolveMerged } from './finish-merges.js';
import { loadGroupingDecisions } from './grouping-decision-store.js';
import { listOverflowFamilies } from './overflow-families.js';
import type { FixOrder, IncidentStore, IngestInput, IngestStatus, QuietIncident } from '../../ports/incident-store.js';
import { ADMITTED_FENCE_TTL_MS, type WriteFence } from '../../ports/write-fence.js';
import { z } from 'zod';
import { HOLD_FAMILY, RELEASE_FINGERPRINT, UPDATE_INCIDENT } from './incident-scripts.js';
import { ingestBatchArgs, ingestKeys, type IngestKeys } from './ingest-batch-args.js';
import { INGEST_BATCH } from './ingest-batch-script.js';
import { cancelExpiry, pruneExpired, scheduleExpiry } from './retention.js';
import { createStateIndex, stateIndexKey } from './state-index.js';

type RedisWithScripts = RedisClient & {
  medicIngestBatch(args: (string | number)[]): Promise<string[]>;
  medicUpdateIncident(...args: (string | number)[]): Promise<number>;
  medicReleaseFingerprint(...args: (string | number)[]): Promise<number>;
  medicHoldFamily(...args: (string | number)[]): Promise<number>;
  medicMergeFamily(...args: (string | number)[]): Promise<number>;
};


const FixOrderSchema = z.object({ kind: z.literal('apply-fix'), incidentId: z.string().min(1), proposalHash: z.string().min(1), round: z.number().int().min(0), approverId: z.string().min(1) });
const orderField = (order: FixOrder) => `${order.kind}:${order.incidentId}:r${order.round}:${order.proposalHash}`;

const SAMPLE_CAP = 20;
/** Events per script call: Redis runs a call without interleaving, so a call stays a few milliseconds. */
const MAX_BATCH = 2_000;
/** Fingerprints remembered as open between calls (a hint the script checks); forgotten past this many. */
const KNOWN_OPEN_MAX = 50_000;
const MAX_CAS_ATTEMPTS = 20;
/** How long a closed incident is remembered as its family's predecessor. */
const PREDECESSOR_TTL_MS = 30 * 86_400_000;

/** The denied record a refused write leaves: who would have written what, and why not. */
function refusal(id: string, fence: WriteFence, intended: AuditEvent[], state: string): AuditEvent {
  return AuditEvent.parse({
    at: new Date().toISOString(), action: 'incident.write', outcome: 'denied', actor: intended[0]?.actor ?? PIPELINE_ACTOR, incidentId: id,
    reason: `this worker's lease on ${fence.lock} (fence ${fence.fence}) was taken over and a later holder has written`,
    details: { lock: fence.lock, fence: fence.fence, code: ErrorCode.StaleLease, state, actions: intended.map((event) => event.action) },
  });
}

function staleWrite(id: string, fence: WriteFence): MedicError {
  return new MedicError(ErrorCode.StaleLease, `Refused the write to ${id}: this worker's lease on ${fence.lock} (fence ${fence.fence}) was taken over and a later holder has written; the record is that holder's.`);
}

export interface IncidentStoreOptions {
  /** A closed (resolved) incident is deleted this long after it closed; 0 keeps it. */
  retentionMs?: number;
  /** XADD MAXLEN ~ of the audit stream; each incident's own stream is capped at the smaller of it and 10,000. */
  auditMaxLen?: number;
}

export function createIncidentStore(redis: RedisClient, prefix: string, options: IncidentStoreOptions = {}): IncidentStore {
  const retentionMs = options.retentionMs ?? 0;
  const auditMaxLen = options.auditMaxLen ?? 1_000_000;
  const r = redis as RedisWithScripts;
  if (typeof r.medicIngestBatch !== 'function') {
    // The batch script's key count depends on the batch: it is the first argument of each call.
    redis.defineCommand('medicIngestBatch', { lua: INGEST_BATCH });
    redis.defineCommand('medicMergeFamily', { numberOfKeys: 7, lua: MERGE_FAMILY });
    redis.defineCommand('medicUpdateIncident', { numberOfKeys: 9, lua: UPDATE_INCIDENT });
    redis.defineCommand('medicReleaseFingerprint', { numberOfKeys: 3, lua: RELEASE_FINGERPRINT });
    redis.defineCommand('medicHoldFamily', { numberOfKeys: 3, lua: HOLD_FAMILY });
  }
  const key = (id: string) => `${prefix}incident:${id}`;
  const knownOpen = new Set<string>();
  const keys: IngestKeys & { merged: string; mergesPending: string; outbox: string; state: ReturnType<typeof stateIndexKey> } = {
    ...ingestKeys(prefix),
    merged: `${prefix}merged`,
    mergesPending: `${prefix}merges:pending`,
    outbox: `${prefix}outbox`,
    state: stateIndexKey(prefix),
  };

  const states = createStateIndex(redis, prefix);

  async function get(id: string): Promise<Incident | undefined> {
    const json = await redis.get(key(id));
    return json === null ? undefined : Incident.parse(JSON.parse(json));
  }

  /**
   * Incidents recorded before the counts existed: counted once, page by page, then kept by the
   * scripts. A write racing this one-off count can leave a gauge off by one until the next change.
   */
  async function rebuildCounts(): Promise<Partial<Record<IncidentState, number>>> {
    const counts: Record<string, number> = {};
    const total = await redis.zcard(keys.incidents);
    for (let start = 0; start < total; start += 500) {
      const ids = await redis.zrange(keys.incidents, start, start + 499);
      const rows = ids.length > 0 ? await redis.mget(...ids.map(key)) : [];
      for (const json of rows) {
        const state = json === null ? undefined : (JSON.parse(json) as { state?: string }).state;
        if (state) counts[state] = (counts[state] ?? 0) + 1;
      }
    }
    if (Object.keys(counts).length > 0) await redis.hset(keys.byState, counts);
    return counts;
  }

  const refused = (error: unknown) => new MedicError(ErrorCode.UpstreamUnavailable, `Redis refused an ingest: ${(error as Error).message}`, { transient: true });

  async function mergeFamilies(merges: [string, string][], nowMs: number): Promise<void> {
    const overflow = overflowFingerprint(hourOf(nowMs));
    for (const [from, to] of merges) {
      await r.medicMergeFamily(
        keys.scopes(from), keys.scopes(to), keys.merged, keys.mergesPending, keys.activity, keys.pending, keys.families(overflow),
        prefix, from, to, SAMPLE_CAP, nowMs,
      ).catch((error: unknown) => Promise.reject(refused(error)));
    }
  }

  const store: IncidentStore = {
    mergeFamilies,
    async ingest(inputs, nowMs, options = {}) {
      const hour = hourOf(nowMs);
      const overflow = overflowFingerprint(hour);
      const msLeftInHour = (hour + 1) * HOUR_MS - nowMs;
      // The overflow record rides along once per call, not once per event; created only if needed.
      if (options.overflow) await redis.set(keys.template(overflow), JSON.stringify(options.overflow), 'PX', msLeftInHour + HOUR_MS, 'NX');
      const ctx = { keys, prefix, hour, overflow, nowMs, msLeftInHour, sampleCap: SAMPLE_CAP, options };
      const out: { status: IngestStatus; incidentId: string }[] = [];
      const runBatch = async (segment: IngestInput[]) => {
        let flat = await r.medicIngestBatch(ingestBatchArgs(segment, ctx, knownOpen)).catch((error: unknown) => Promise.reject(refused(error)));
        // A fingerprint believed open was not: nothing was written, the batch goes again whole.
        if (flat.length === 1 && flat[0] === 'resend') flat = await r.medicIngestBatch(ingestBatchArgs(segment, ctx)).catch((error: unknown) => Promise.reject(refused(error)));
        if (knownOpen.size > KNOWN_OPEN_MAX) knownOpen.clear();
        for (let j = 0; j + 1 < flat.length; j += 2) {
          const status = flat[j] as IngestStatus;
          const fingerprint = segment[j / 2]!.fingerprint;
          if (status === 'absorbed' || status === 'created') knownOpen.add(fingerprint);
          else if (status !== 'duplicate') knownOpen.delete(fingerprint);
          out.push({ status, incidentId: flat[j + 1] ?? '' });
        }
      };
      // Events go in batch calls, one after the other; a family merge ends a batch and runs between
      // two, in order: the events before it were keyed on the retired family, the events after it on the survivor.
      let segment: IngestInput[] = [];
      for (const input of inputs) {
        if (input.merges?.length && segment.length > 0) {
          await runBatch(segment);
          segment = [];
        }
        if (input.merges?.length) await mergeFamilies(input.merges, nowMs);
        segment.push(input);
        if (segment.length >= MAX_BATCH) {
          await runBatch(segment);
          segment = [];
        }
      }
      if (segment.length > 0) await runBatch(segment);
      return out;
    },
    get,
    async require(id) {
      const incident = await get(id);
      if (!incident) throw new MedicError(ErrorCode.NotFound, `No incident ${id}. List them with \`npm run medic -- incidents\`.`);
      return incident;
    },
    async update(id, mutate, known, options = {}) {
      const { fence } = options;
      for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
        const assumed = attempt === 0 && known?.id === id;
        const current = assumed ? known : await get(id);
        if (!current) throw new MedicError(ErrorCode.NotFound, `No incident ${id}.`);
        const mutation = mutate(current);
        // Declining is decided on the stored record, never on the caller's copy.
        if (!mutation && assumed) continue;
        if (!mutation) return current;
        const next = Incident.parse({ ...mutation.incident, version: current.version + 1 });
        const audit = mutation.audit.map((event) => JSON.stringify(AuditEvent.parse({ ...event, incidentId: id })));
        const order = mutation.order ? [orderField(mutation.order), JSON.stringify(FixOrderSchema.parse(mutation.order))] : ['', ''];
        const fenced = fence ? [String(fence.fence), JSON.stringify(refusal(id, fence, mutation.audit, next.state)), ADMITTED_FENCE_TTL_MS] : ['', '', 0];
        const result = await r.medicUpdateIncident(
          key(id), `${prefix}audit`, `${prefix}audit:${id}`, keys.byState, keys.outbox, keys.state(current.state), keys.state(next.state), keys.incidents,
          fence ? `${prefix}${fence.lock}:admitted` : key(id),
          String(current.version), JSON.stringify(next), ...order, auditMaxLen, Math.min(auditMaxLen, 10_000), ...fenced, id, next.state, ...audit,
        );
        if (result === 1) {
          // Retention starts when an incident is resolved, and stops if it is reopened.
          if (retentionMs > 0 && next.state === 'closed' && current.state !== 'closed') await scheduleExpiry(redis, prefix, id, retentionMs, Date.now());
          if (current.state === 'closed' && next.state !== 'closed') await cancelExpiry(redis, prefix, id);
          return next;
        }
        if (result === -1) throw new MedicError(ErrorCode.NotFound, `No incident ${id}.`);
        if (result === -2 && fence) throw staleWrite(id, fence);
      }
      throw new MedicError(ErrorCode.Conflict, `Incident ${id} kept changing under concurrent writers; try again.`, { transient: true });
    },
    async list(options = {}) {
      const limit = options.limit ?? 1000;
      if (options.states) {
        const ids = await states.newest(options.states, limit);
        if (ids.length === 0) return [];
        const rows = await redis.mget(...ids.map(key));
        // An index a moment behind a concurrent write is filtered by the record's own state.
        return rows.flatMap((json) => (json === null ? [] : [Incident.parse(JSON.parse(json))])).filter((i) => options.states?.includes(i.state));
      }
      const ids = await redis.zrevrange(keys.incidents, 0, limit - 1);
      if (ids.length === 0) return [];
      const rows = await redis.mget(...ids.map(key));
      const incidents = rows.flatMap((json) => (json === null ? [] : [Incident.parse(JSON.parse(json))]));
      return options.states ? incidents.filter((i) => options.states?.includes(i.state)) : incidents;
    },
    async pendingOrders() {
      const rows = Object.values(await redis.hgetall(keys.outbox));
      return rows.flatMap((json) => {
        const parsed = FixOrderSchema.safeParse(JSON.parse(json));
        return parsed.success ? [parsed.data] : [];
      });
    },
    async completeOrder(order) {
      await redis.hdel(keys.outbox, orderField(order));
    },
    pruneExpired: (nowMs) => pruneExpired(redis, prefix, nowMs),
    async countByState() {
      const [[, counts], [, exists]] = ((await redis.multi().hgetall(keys.byState).exists(keys.byState).exec()) ?? [[null, {}], [null, 0]]) as [[unknown, Record<string, string>], [unknown, number]];
      if (exists === 0 && (await redis.zcard(keys.incidents)) > 0) return rebuildCounts();
      return Object.fromEntries(Object.entries(counts).map(([state, n]) => [state, Number(n)]));
    },
    async stats(id) {
      const hash = await redis.hgetall(`${key(id)}:stats`);
      if (!hash.count) return undefined;
      return { count: Number(hash.count), firstSeen: hash.firstSeen ?? '', lastSeen: hash.lastSeen ?? '' };
    },
    async eventRate(id) {
      const hash = await redis.hgetall(`${key(id)}:rate`);
      return Object.fromEntries(Object.entries(hash).map(([minute, n]) => [minute, Number(n)]));
    },
    async holdFamily(incident, windowMs) {
      await r.medicHoldFamily(keys.open(incident.fingerprint), keys.last(incident.fingerprint), keys.activity, incident.id, windowMs ?? 0, PREDECESSOR_TTL_MS, Date.now());
    },
    async recentEvents(id, limit = SAMPLE_CAP) {
      const rows = await redis.lrange(`${key(id)}:events`, 0, limit - 1);
      return rows.map((json) => ErrorEvent.parse(JSON.parse(json)));
    },
    async pendingAnalysis() {
      return redis.smembers(keys.pending);
    },
    async clearPending(id) {
      await redis.srem(keys.pending, id);
    },
    async pruneProcessed(olderThanMs) {
      return redis.zremrangebyscore(keys.processed, '-inf', `(${olderThanMs}`);
    },
    async releaseFingerprint(incident) {
      // Only the fingerprint's own incident releases it; the predecessor link is kept either way.
      await r.medicReleaseFingerprint(keys.open(incident.fingerprint), keys.last(incident.fingerprint), keys.activity, incident.id, PREDECESSOR_TTL_MS);
      // A later overflow in the same hour must get a record of its own, not overwrite this one.
      if (isOverflowFingerprint(incident.fingerprint)) await redis.del(keys.template(incident.fingerprint));
    },
    async quietIncidents(cutoffMs, limit = 500) {
      const rows = await redis.zrangebyscore(keys.activity, '-inf', cutoffMs, 'WITHSCORES', 'LIMIT', 0, limit);
      const quiet: QuietIncident[] = [];
      for (let i = 0; i + 1 < rows.length; i += 2) quiet.push({ id: rows[i] ?? '', lastEventMs: Number(rows[i + 1]) });
      return quiet;
    },
    async lastEventMs(id) {
      const score = await redis.zscore(keys.activity, id);
      return score === null ? undefined : Number(score);
    },
    async suppressedFamilies(overflow) {
      return redis.scard(keys.families(overflow));
    },
    finishMerges() {
      return finishMerges(redis, prefix, (id, mutate) => store.update(id, mutate));
    },
    resolve: (id) => resolveMerged(redis, prefix, id),
    groupingDecisions: () => loadGroupingDecisions(redis, prefix),
    overflowFamilies: (overflow, limit) => listOverflowFamilies(redis, prefix, overflow, limit),
    async openIncidentOf(fingerprint) {
      return (await redis.get(keys.open(fingerprint))) ?? undefined;
    },
  };
  return store;
}
