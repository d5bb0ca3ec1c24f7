import type { Redis } from 'ioredis';
import { ingestBatchArgs, ingestKeys } from '../../src/adapters/redis/ingest-batch-args.js';
import { INGEST_PARTS, luaParts, type IngestPart } from '../../src/adapters/redis/lua-scripts.js';
import { createIncident, type Incident } from '../../src/domain/incident.js';
import type { ErrorEvent } from '../../src/domain/event.js';
import { hourOf, HOUR_MS, overflowFingerprint } from '../../src/domain/storm-policy.js';
import type { IngestInput, IngestOptions } from '../../src/ports/incident-store.js';
import { buildEvent } from './builders.js';

export const NOW = Date.parse('2026-11-30T09:10:00.000Z');

export interface PartCall {
  inputs: IngestInput[];
  nowMs?: number;
  sampleCap?: number;
  options?: IngestOptions;
  /** Fingerprints the caller believes open: their events that cannot be sampled go without their JSON. */
  knownOpen?: ReadonlySet<string>;
}

/**
 * Runs the ingest script's parts up to and including `through` (in their order), then `driver`,
 * in one EVAL with the keys and arguments ingest-batch-args.ts lays out for the call's inputs:
 * a part is tested through the functions it defines, as the parts after it use them. The
 * driver answers with cjson.encode(...), parsed here.
 */
export async function runParts<T>(redis: Redis, prefix: string, through: IngestPart, driver: string, call: PartCall): Promise<T> {
  const parts = INGEST_PARTS.slice(0, INGEST_PARTS.indexOf(through) + 1);
  const nowMs = call.nowMs ?? NOW;
  const hour = hourOf(nowMs);
  const args = ingestBatchArgs(call.inputs, {
    keys: ingestKeys(prefix), prefix, hour, overflow: overflowFingerprint(hour), nowMs, msLeftInHour: (hour + 1) * HOUR_MS - nowMs,
    sampleCap: call.sampleCap ?? 20, options: call.options ?? {},
  }, call.knownOpen);
  const [keyCount, ...rest] = args;
  const answer = await redis.eval(`${luaParts('ingest', parts)}\n${driver}`, Number(keyCount), ...rest);
  return JSON.parse(String(answer)) as T;
}

/** An ingest input of family `fingerprint` (service `checkout`), whose candidate incident is `inc-<event id>`. */
export function partInput(eventId: string, fingerprint: string, overrides: { time?: string; severity?: ErrorEvent['severity']; rule?: IngestInput['rule']; scope?: string; service?: string } = {}): IngestInput {
  const event = buildEvent({ id: eventId, time: overrides.time ?? '2026-11-30T09:05:00.000Z', severity: overrides.severity ?? 'error', service: overrides.service ?? 'checkout', message: `boom ${fingerprint}` });
  const candidate: Incident = createIncident({ id: `inc-${eventId}`, fingerprint, title: `boom ${fingerprint}`, event, at: event.time });
  return { event, fingerprint, candidate, scope: overrides.scope, family: overrides.scope ? fingerprint : undefined, rule: overrides.rule };
}

/** The hour's overflow incident record, as the store sets its template before a capped call. */
export function overflowTemplate(nowMs = NOW): Incident {
  const id = `overflow-${hourOf(nowMs)}`;
  return createIncident({ id, fingerprint: overflowFingerprint(hourOf(nowMs)), title: 'overflow', event: buildEvent({ id: 'overflow-event' }), at: new Date(nowMs).toISOString() });
}
