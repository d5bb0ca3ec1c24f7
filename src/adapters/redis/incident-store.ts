import type { RedisClient } from './connect.js';
import { AuditEvent } from '../../domain/audit.js';
import { ErrorEvent } from '../../domain/event.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { Incident, type IncidentState } from '../../domain/incident.js';
import { hourOf, HOUR_MS, isOverflowFingerprint, overflowFingerprint, severityWeight } from '../../domain/storm-policy.js';
import { MERGE_FAMILY } from './family-merge-script.js';
import { finishMerges, resolveMerged } from './finish-merges.js';
import { loadGroupingDecisions } from './grouping-decision-store.js';
import { listOverflowFamilies } from './overflow-families.js';
import type { FixOrder, IncidentStore, IngestStatus, QuietIncident } from '../../ports/incident-store.js';
import { z } from 'zod';
import { INGEST_EVENT, RELEASE_FINGERPRINT, UPDATE_INCIDENT } from './incident-scripts.js';
import { cancelExpiry, pruneExpired, scheduleExpiry } from './retention.js';
import { createStateIndex, stateIndexKey } from './state-index.js';

type RedisWithScripts = RedisClient & {
  medicIngest(...args: (string | number)[]): Promise<[IngestStatus, string]>;
  medicUpdateIncident(...args: (string | number)[]): Promise<number>;
  medicReleaseFingerprint(...args: (string | number)[]): Promise<number>;
};

type IngestPipeline = {
  medicIngest(...args: (string | number)[]): void;
  medicMergeFamily(...args: (string | number)[]): void;
  exec(): Promise<[Error | null, unknown][] | null>;
};

const FixOrderSchema = z.object({ kind: z.literal('apply-fix'), incidentId: z.string().min(1), proposalHash: z.string().min(1), round: z.number().int().min(0), approverId: z.string().min(1) });
const orderField = (order: FixOrder) => `${order.kind}:${order.incidentId}:r${order.round}:${order.proposalHash}`;

const SAMPLE_CAP = 20;
const MAX_CAS_ATTEMPTS = 20;
/** How long a closed incident is remembered as its family's predecessor. */
const PREDECESSOR_TTL_MS = 30 * 86_400_000;

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
  if (typeof r.medicIngest !== 'function') {
    redis.defineCommand('medicIngest', { numberOfKeys: 19, lua: INGEST_EVENT });
    redis.defineCommand('medicMergeFamily', { numberOfKeys: 7, lua: MERGE_FAMILY });
    redis.defineCommand('medicUpdateIncident', { numberOfKeys: 8, lua: UPDATE_INCIDENT });
    redis.defineCommand('medicReleaseFingerprint', { numberOfKeys: 3, lua: RELEASE_FINGERPRINT });
  }
  const key = (id: string) => `${prefix}incident:${id}`;
  const keys = {
    processed: `${prefix}processed`,
    incidents: `${prefix}incidents`,
    byState: `${prefix}incidents:by-state`,
    pending: `${prefix}pending-analysis`,
    activity: `${prefix}activity`,
    open: (fingerprint: string) => `${prefix}open:${fingerprint}`,
    forming: (fingerprint: string) => `${prefix}forming:${fingerprint}`,
    last: (fingerprint: string) => `${prefix}last:${fingerprint}`,
    cap: (hour: number, service?: string) => (service === undefined ? `${prefix}cap:${hour}` : `${prefix}cap:${service}:${hour}`),
    families: (overflow: string) => `${prefix}${overflow}:families`,
    template: (overflow: string) => `${prefix}${overflow}:template`,
    scopes: (family: string) => `${prefix}family:${family}:scopes`,
    volume: (hour: number, service?: string) => (service === undefined ? `${prefix}cap:${hour}:volume` : `${prefix}cap:${service}:${hour}:volume`),
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

  const store: IncidentStore = {
    async ingest(inputs, nowMs, options = {}) {
      const hour = hourOf(nowMs);
      const overflow = overflowFingerprint(hour);
      const msLeftInHour = (hour + 1) * HOUR_MS - nowMs;
      // The overflow record rides along once per call, not once per event; created only if needed.
      if (options.overflow) await redis.set(keys.template(overflow), JSON.stringify(options.overflow), 'PX', msLeftInHour + HOUR_MS, 'NX');
      const pipeline = redis.pipeline() as unknown as IngestPipeline;
      // Merges ride in the same pipeline, in order: the events before a merge were keyed on the
      // retired family, the events after it on the survivor. Their results are not returned.
      const isEvent: boolean[] = [];
      for (const { event, fingerprint, scope, family, merges, candidate, rule } of inputs) {
        for (const [from, to] of merges ?? []) {
          pipeline.medicMergeFamily(
            keys.scopes(from), keys.scopes(to), keys.merged, keys.mergesPending, keys.activity, keys.pending, keys.families(overflow),
            prefix, from, to, SAMPLE_CAP, nowMs,
          );
          isEvent.push(false);
        }
        isEvent.push(true);
        pipeline.medicIngest(
          keys.processed, keys.open(fingerprint), keys.incidents, keys.pending,
          keys.forming(fingerprint), `${keys.forming(fingerprint)}:events`, keys.activity, keys.last(fingerprint),
          keys.cap(hour), keys.cap(hour, candidate.service), keys.open(overflow), keys.families(overflow), keys.template(overflow),
          keys.scopes(family ?? ''),
          keys.volume(hour), keys.volume(hour, candidate.service), `${prefix}${overflow}:volume`, `${prefix}${overflow}:info`, keys.byState,
          prefix, event.id, nowMs, candidate.id, JSON.stringify(candidate), event.time, JSON.stringify(event), SAMPLE_CAP,
          rule?.minEvents ?? 1, rule?.windowMs ?? 0, options.caps?.perHour ?? 0, options.caps?.perServiceHour ?? 0, fingerprint, msLeftInHour, scope ?? '',
          severityWeight(event.severity), JSON.stringify({ service: candidate.service, title: candidate.title }),
        );
      }
      const results = (await pipeline.exec()) ?? [];
      const out: { status: IngestStatus; incidentId: string }[] = [];
      results.forEach(([error, value], i) => {
        if (error) throw new MedicError(ErrorCode.UpstreamUnavailable, `Redis refused an ingest: ${error.message}`, { transient: true });
        if (!isEvent[i]) return;
        const [status, incidentId] = value as [IngestStatus, string];
        out.push({ status, incidentId });
      });
      return out;
    },
    get,
    async require(id) {
      const incident = await get(id);
      if (!incident) throw new MedicError(ErrorCode.NotFound, `No incident ${id}. List them with \`npm run medic -- incidents\`.`);
      return incident;
    },
    async update(id, mutate) {
      for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
        const current = await get(id);
        if (!current) throw new MedicError(ErrorCode.NotFound, `No incident ${id}.`);
        const mutation = mutate(current);
        if (!mutation) return current;
        const next = Incident.parse({ ...mutation.incident, version: current.version + 1 });
        const audit = mutation.audit.map((event) => JSON.stringify(AuditEvent.parse({ ...event, incidentId: id })));
        const order = mutation.order ? [orderField(mutation.order), JSON.stringify(FixOrderSchema.parse(mutation.order))] : ['', ''];
        const result = await r.medicUpdateIncident(
          key(id), `${prefix}audit`, `${prefix}audit:${id}`, keys.byState, keys.outbox, keys.state(current.state), keys.state(next.state), keys.incidents,
          String(current.version), JSON.stringify(next), ...order, auditMaxLen, Math.min(auditMaxLen, 10_000), ...audit,
        );
        if (result === 1) {
          // Retention starts when an incident is resolved, and stops if it is reopened.
          if (retentionMs > 0 && next.state === 'closed' && current.state !== 'closed') await scheduleExpiry(redis, prefix, id, retentionMs, Date.now());
          if (current.state === 'closed' && next.state !== 'closed') await cancelExpiry(redis, prefix, id);
          return next;
        }
        if (result === -1) throw new MedicError(ErrorCode.NotFound, `No incident ${id}.`);
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
