import type { Redis } from 'ioredis';
import { AuditEvent } from '../../domain/audit.js';
import { ErrorEvent } from '../../domain/event.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { Incident, type IncidentState, type IncidentStats } from '../../domain/incident.js';
import { INGEST_EVENT, UPDATE_INCIDENT } from './incident-scripts.js';

export type IngestStatus = 'duplicate' | 'created' | 'absorbed';

export interface IngestInput {
  event: ErrorEvent;
  fingerprint: string;
  /** The record to store if this event opens a new incident. */
  candidate: Incident;
}

export interface Mutation {
  incident: Incident;
  audit: AuditEvent[];
}

export interface IncidentStore {
  ingest(inputs: IngestInput[], nowMs: number): Promise<{ status: IngestStatus; incidentId: string }[]>;
  get(id: string): Promise<Incident | undefined>;
  require(id: string): Promise<Incident>;
  /** Reads, applies `mutate`, and writes back with its audit records unless another writer won; then retries. */
  update(id: string, mutate: (incident: Incident) => Mutation | undefined): Promise<Incident>;
  list(options?: { states?: IncidentState[]; limit?: number }): Promise<Incident[]>;
  stats(id: string): Promise<IncidentStats | undefined>;
  recentEvents(id: string, limit?: number): Promise<ErrorEvent[]>;
  /** Incidents created whose analysis job may not have been enqueued yet (crash between the two). */
  pendingAnalysis(): Promise<string[]>;
  clearPending(id: string): Promise<void>;
  /** Forgets processed event ids older than the retention, keeping dedupe memory bounded. */
  pruneProcessed(olderThanMs: number): Promise<number>;
  /** Closes the incident's fingerprint so the next event of that family opens a new incident. */
  releaseFingerprint(incident: Incident): Promise<void>;
}

type RedisWithScripts = Redis & {
  medicIngest(...args: (string | number)[]): Promise<[IngestStatus, string]>;
  medicUpdateIncident(...args: (string | number)[]): Promise<number>;
};

const SAMPLE_CAP = 20;
const MAX_CAS_ATTEMPTS = 20;

export function createIncidentStore(redis: Redis, prefix: string): IncidentStore {
  const r = redis as RedisWithScripts;
  if (typeof r.medicIngest !== 'function') {
    redis.defineCommand('medicIngest', { numberOfKeys: 4, lua: INGEST_EVENT });
    redis.defineCommand('medicUpdateIncident', { numberOfKeys: 3, lua: UPDATE_INCIDENT });
  }
  const key = (id: string) => `${prefix}incident:${id}`;
  const keys = {
    processed: `${prefix}processed`,
    incidents: `${prefix}incidents`,
    pending: `${prefix}pending-analysis`,
    open: (fingerprint: string) => `${prefix}open:${fingerprint}`,
  };

  async function get(id: string): Promise<Incident | undefined> {
    const json = await redis.get(key(id));
    return json === null ? undefined : Incident.parse(JSON.parse(json));
  }

  return {
    async ingest(inputs, nowMs) {
      const pipeline = redis.pipeline() as unknown as { medicIngest(...args: (string | number)[]): void; exec(): Promise<[Error | null, unknown][] | null> };
      for (const { event, fingerprint, candidate } of inputs) {
        pipeline.medicIngest(
          keys.processed, keys.open(fingerprint), keys.incidents, keys.pending,
          prefix, event.id, nowMs, candidate.id, JSON.stringify(candidate), event.time, JSON.stringify(event), SAMPLE_CAP,
        );
      }
      const results = (await pipeline.exec()) ?? [];
      return results.map(([error, value]) => {
        if (error) throw new MedicError(ErrorCode.UpstreamUnavailable, `Redis refused an ingest: ${error.message}`, { transient: true });
        const [status, incidentId] = value as [IngestStatus, string];
        return { status, incidentId };
      });
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
        const result = await r.medicUpdateIncident(key(id), `${prefix}audit`, `${prefix}audit:${id}`, String(current.version), JSON.stringify(next), ...audit);
        if (result === 1) return next;
        if (result === -1) throw new MedicError(ErrorCode.NotFound, `No incident ${id}.`);
      }
      throw new MedicError(ErrorCode.Conflict, `Incident ${id} kept changing under concurrent writers; try again.`, { transient: true });
    },
    async list(options = {}) {
      const ids = await redis.zrevrange(keys.incidents, 0, (options.limit ?? 1000) - 1);
      if (ids.length === 0) return [];
      const rows = await redis.mget(...ids.map(key));
      const incidents = rows.flatMap((json) => (json === null ? [] : [Incident.parse(JSON.parse(json))]));
      return options.states ? incidents.filter((i) => options.states?.includes(i.state)) : incidents;
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
      // Only release if the fingerprint still points at this incident.
      const current = await redis.get(keys.open(incident.fingerprint));
      if (current === incident.id) await redis.del(keys.open(incident.fingerprint));
    },
  };
}
