import { severityWeight } from '../../domain/storm-policy.js';
import type { Incident } from '../../domain/incident.js';
import type { IngestInput, IngestOptions } from '../../ports/incident-store.js';

/** Events of an open fingerprint go without JSON only with this many times sampleCap of it after them. */
const LIGHT_MARGIN = 2;

export interface IngestKeys {
  processed: string;
  incidents: string;
  pending: string;
  activity: string;
  byState: string;
  open(fingerprint: string): string;
  forming(fingerprint: string): string;
  last(fingerprint: string): string;
  cap(hour: number, service?: string): string;
  scopes(family: string): string;
  volume(hour: number, service?: string): string;
  families(overflow: string): string;
  template(overflow: string): string;
  overflowVolume(overflow: string): string;
  overflowInfo(overflow: string): string;
}

export interface BatchContext {
  keys: IngestKeys;
  prefix: string;
  hour: number;
  overflow: string;
  nowMs: number;
  msLeftInHour: number;
  sampleCap: number;
  options: IngestOptions;
}

/**
 * The keys and arguments of one INGEST_BATCH call (see ingest-batch-script.ts): fingerprints and
 * services become key groups, and the strings events of a batch share (a candidate record
 * without its id and first event, a family's info) are sent once. `knownOpen`: fingerprints
 * the last calls found open, whose events that cannot be sampled are sent without their JSON.
 */
export function ingestBatchArgs(inputs: readonly IngestInput[], ctx: BatchContext, knownOpen: ReadonlySet<string> = new Set()): (string | number)[] {
  const { keys, hour, overflow } = ctx;
  const fixedKeys = [
    keys.processed, keys.incidents, keys.pending, keys.activity, keys.cap(hour), keys.open(overflow), keys.families(overflow),
    keys.template(overflow), keys.volume(hour), keys.overflowVolume(overflow), keys.overflowInfo(overflow), keys.byState,
  ];
  const groupKeys: string[] = [];
  const groupArgs: string[] = [];
  const groups = new Map<string, number>();
  const serviceKeys: string[] = [];
  const services = new Map<string, number>();
  const strings: string[] = [];
  const stringIds = new Map<string, number>();
  const share = (text: string) => {
    let id = stringIds.get(text);
    if (id === undefined) {
      strings.push(text);
      id = strings.length;
      stringIds.set(text, id);
    }
    return id;
  };
  // Of a fingerprint believed open, only its newest sampleCap events here can be sampled: the
  // others go without their JSON, which the script checks (and asks for the batch whole otherwise).
  // Repeats of an id in the batch push no sample, and neither do events Redis already holds: the
  // first are not counted, the second are the reason for the margin.
  const left = new Map<string, number>();
  const firsts = new Set<string>();
  if (knownOpen.size > 0) {
    for (const { event, fingerprint } of inputs) {
      if (!knownOpen.has(fingerprint) || firsts.has(event.id)) continue;
      firsts.add(event.id);
      left.set(fingerprint, (left.get(fingerprint) ?? 0) + 1);
    }
  }
  // A family's info is the same few strings for every event of a batch.
  const infos = new Map<string, number>();
  const infoId = (service: string, title: string) => {
    const key = `${service}\u0000${title}`;
    let id = infos.get(key);
    if (id === undefined) {
      id = share(JSON.stringify({ service, title }));
      infos.set(key, id);
    }
    return id;
  };
  const shapes = shapeMemo();
  const eventArgs: (string | number)[] = [];
  for (const { event, fingerprint, scope, family, candidate, rule } of inputs) {
    const after = firsts.delete(event.id) ? left.get(fingerprint) : undefined;
    if (after !== undefined) left.set(fingerprint, after - 1);
    const light = after !== undefined && after > LIGHT_MARGIN * ctx.sampleCap;
    const groupId = `${fingerprint}\u0000${scope ?? ''}\u0000${family ?? ''}`;
    let group = groups.get(groupId);
    if (group === undefined) {
      group = groups.size;
      groups.set(groupId, group);
      groupKeys.push(keys.open(fingerprint), keys.forming(fingerprint), `${keys.forming(fingerprint)}:events`, keys.last(fingerprint), keys.scopes(family ?? ''));
      groupArgs.push(fingerprint, scope ?? '');
    }
    let service = services.get(candidate.service);
    if (service === undefined) {
      service = services.size;
      services.set(candidate.service, service);
      serviceKeys.push(keys.cap(hour, candidate.service), keys.volume(hour, candidate.service));
    }
    eventArgs.push(
      event.id, event.time, light ? '' : JSON.stringify(event), candidate.id, share(shapes.of(fingerprint, candidate)), group, service,
      rule?.minEvents ?? 1, rule?.windowMs ?? 0, severityWeight(event.severity), infoId(candidate.service, candidate.title),
    );
  }
  const allKeys = [...fixedKeys, ...groupKeys, ...serviceKeys];
  return [
    allKeys.length, ...allKeys,
    ctx.prefix, ctx.nowMs, ctx.sampleCap, ctx.options.caps?.perHour ?? 0, ctx.options.caps?.perServiceHour ?? 0, ctx.msLeftInHour,
    groups.size, strings.length, inputs.length,
    ...groupArgs, ...strings, ...eventArgs,
  ];
}

/**
 * A candidate record without its id and first event, as JSON: what the events of a family share.
 * The last one of each fingerprint is kept, and a candidate whose every other field is the very
 * same value (callers build a family's candidates from one base) reuses its JSON.
 */
function shapeMemo() {
  const last = new Map<string, { candidate: Incident; json: string }>();
  return {
    of(fingerprint: string, candidate: Incident): string {
      const known = last.get(fingerprint);
      if (known && sameShape(known.candidate, candidate)) return known.json;
      const { id: _id, firstEvent: _firstEvent, ...shape } = candidate;
      const json = JSON.stringify(shape);
      last.set(fingerprint, { candidate, json });
      return json;
    },
  };
}

function sameShape(a: Incident, b: Incident): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (key === 'id' || key === 'firstEvent') continue;
    if (!Object.hasOwn(b, key) || a[key as keyof Incident] !== b[key as keyof Incident]) return false;
  }
  return true;
}
