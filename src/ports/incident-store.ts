import type { AuditEvent } from '../domain/audit.js';
import type { ErrorEvent } from '../domain/event.js';
import type { EventRate } from '../domain/event-rate.js';
import type { Incident, IncidentState, IncidentStats } from '../domain/incident.js';
import type { WriteFence } from './write-fence.js';

/** Operator decisions that hold for future events: which fingerprint joins which, which family splits by what. */
export interface GroupingDecisions {
  aliases: Map<string, string>;
  /** splitDecisionKey(service, family) → the field the family divides by. */
  splits: Map<string, string>;
}

/** One family counted into an overflow incident, heaviest first. */
export interface OverflowFamily {
  fingerprint: string;
  service: string;
  title: string;
  count: number;
  /** Events weighted by severity: what it competes with the capped incidents on. */
  volume: number;
}

export type IngestStatus = 'duplicate' | 'held' | 'created' | 'absorbed' | 'overflow';

export interface IngestInput {
  event: ErrorEvent;
  fingerprint: string;
  /** The fingerprint's scope and message family when `fingerprint` is `<scope>:<family>`; without them no family merge can reach it. */
  scope?: string;
  family?: string;
  /** Families the miner merged before this event ([retired, survivor]): applied first, in order. */
  merges?: [string, string][];
  /** The record to store if this event opens a new incident. */
  candidate: Incident;
  /** The family opens an incident at its `minEvents`th event within `windowMs` (default: the first). */
  rule?: { minEvents: number; windowMs: number };
}

export interface IngestOptions {
  /** Caps on new incidents per hour window; over either, families go to the hour's overflow incident. */
  caps?: { perHour: number; perServiceHour: number };
  /** The overflow incident to create for the hour, when a cap is first exceeded. */
  overflow?: Incident;
}

export interface QuietIncident {
  id: string;
  /** When Medic last recorded an event for it (the ingest clock, not the log's time). */
  lastEventMs: number;
}

/**
 * Work a state change promises, written in the same atomic step as the change (a transactional
 * outbox): an approval is its decision, the gateway's approval record and the fix job together,
 * and whoever drains the outbox (the web right after the write, any worker later) keeps the promise.
 */
export interface FixOrder {
  kind: 'apply-fix';
  incidentId: string;
  proposalHash: string;
  round: number;
  approverId: string;
}

export interface Mutation {
  incident: Incident;
  audit: AuditEvent[];
  /** Written atomically with the record; drained by `pendingOrders` + `completeOrder`. */
  order?: FixOrder;
}

export interface IncidentStore {
  ingest(inputs: IngestInput[], nowMs: number, options?: IngestOptions): Promise<{ status: IngestStatus; incidentId: string }[]>;
  /** The miner's family merges ([retired, survivor]), in order, as an ingest runs an input's `merges` before it. */
  mergeFamilies(merges: [string, string][], nowMs: number): Promise<void>;
  get(id: string): Promise<Incident | undefined>;
  require(id: string): Promise<Incident>;
  /**
   * Reads, applies `mutate`, and writes back with its audit records unless another writer won; then retries.
   * `known` (the record as the caller last wrote or read it) saves the first read; the version check still decides.
   * A lease holder passes its `fence`: the write is refused (ERR_STALE_LEASE, audited as denied)
   * once a later holder of that lock has written.
   */
  update(id: string, mutate: (incident: Incident) => Mutation | undefined, known?: Incident, options?: { fence?: WriteFence }): Promise<Incident>;
  /** Newest first; with `states`, read from the per-state indexes, so an old open incident is never cut off. */
  list(options?: { states?: IncidentState[]; limit?: number }): Promise<Incident[]>;
  /** Outbox entries written by `update` and not yet completed, oldest first. */
  pendingOrders(): Promise<FixOrder[]>;
  completeOrder(order: FixOrder): Promise<void>;
  /** Takes incidents whose retention ran out (Redis dropped the record) out of every index. */
  pruneExpired(nowMs: number): Promise<number>;
  /** Incidents per state, from counts kept as states change (no record is read). */
  countByState(): Promise<Partial<Record<IncidentState, number>>>;
  stats(id: string): Promise<IncidentStats | undefined>;
  /** The incident's events per minute of their log time (see event-rate.ts). */
  eventRate(id: string): Promise<EventRate>;
  /**
   * Keeps the incident holding its family. With `windowMs` (a verified incident): for that long,
   * an event of the family is counted into this incident (a regression reopens it); after it, the
   * family is released and its next event opens a new incident naming this one as its predecessor.
   * Without (a reopened incident): for good again, until it is closed.
   */
  holdFamily(incident: Incident, windowMs?: number): Promise<void>;
  recentEvents(id: string, limit?: number): Promise<ErrorEvent[]>;
  /** Incidents created whose analysis job may not have been enqueued yet (crash between the two). */
  pendingAnalysis(): Promise<string[]>;
  clearPending(id: string): Promise<void>;
  /** Forgets processed event ids older than the retention, keeping dedupe memory bounded. */
  pruneProcessed(olderThanMs: number): Promise<number>;
  /** Closes the incident's fingerprint so the next event of that family opens a new incident, linked to this one. */
  releaseFingerprint(incident: Incident): Promise<void>;
  /** Incidents holding a family whose last event was recorded at or before `cutoffMs`, oldest first. */
  quietIncidents(cutoffMs: number, limit?: number): Promise<QuietIncident[]>;
  lastEventMs(id: string): Promise<number | undefined>;
  /** How many families an overflow incident has absorbed. */
  suppressedFamilies(overflowFingerprint: string): Promise<number>;
  /** Writes the records and audit of family merges the ingest made; idempotent. Returns the incidents changed. */
  finishMerges(): Promise<string[]>;
  /** The incident an id ended in after every merge. */
  resolve(id: string): Promise<string>;
  /** The open incident holding a fingerprint, if any. */
  openIncidentOf(fingerprint: string): Promise<string | undefined>;
  /** The operators' Merge and Split decisions, read once per ingest. */
  groupingDecisions(): Promise<GroupingDecisions>;
  /** The families counted into an overflow incident, heaviest first. */
  overflowFamilies(overflowFingerprint: string, limit?: number): Promise<OverflowFamily[]>;
}
