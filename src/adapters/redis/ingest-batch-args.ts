import { severityWeight } from '../../domain/storm-policy.js';
import type { Incident } from '../../domain/incident.js';
import type { IngestInput, IngestOptions } from '../../ports/incident-store.js';


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

/** The keys of a store under prefix that ingest touches. */
export function ingestKeys(prefix: string): IngestKeys {
  return {
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
    overflowVolume: (overflow: string) => `${prefix}${overflow}:volume`,
    overflowInfo: (overflow: string) => `${prefix}${overflow}:info`,
    scopes: (family: string) => `${prefix}family:${family}:scopes`,
    volume: (hour: number, service?: string) => (service === undefined ? `${prefix}cap:${hour}:volume` : `${prefix}cap:${service}:${hour}:volume`),
  };
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
  // others go without their JSON. The script checks that (events Redis already holds, or repeats
  // of an id here, push no sample) and asks for the batch whole when it does not hold.
  const after: number[] = new Array<number>(inputs.length);
  if (knownOpen.size > 0) {
    const followers = new Map<string, number>();
    for (let i = inputs.length - 1; i >= 0; i--) {
      const fingerprint = inputs[i]!.fingerprint;
      const seen = followers.get(fingerprint) ?? 0;
      after[i] = seen;
      followers.set(fingerprint, seen + 1);
    }
  }
  const groupOf = (fingerprint: string, scope: string | undefined, family: string | undefined) => {
    const groupId = `${fingerprint}\u0000${scope ?? ''}\u0000${family ?? ''}`;
    let group = groups.get(groupId);
    if (group === undefined) {
      group = groups.size;
      groups.set(groupId, group);
      groupKeys.push(keys.open(fingerprint), keys.forming(fingerprint), `${keys.forming(fingerprint)}:events`, keys.last(fingerprint), keys.scopes(family ?? ''));
      groupArgs.push(fingerprint, scope ?? '');
    }
    return group;
  };
  const serviceOf = (name: string) => {
    let service = services.get(name);
    if (service === undefined) {
      service = services.size;
      services.set(name, service);
      serviceKeys.push(keys.cap(hour, name), keys.volume(hour, name));
    }
    return service;
  };
  // What the events of a family share is worked out once per fingerprint, and again only when an
  // event of it differs in any of it.
  const profiles = new Map<string, { input: IngestInput; id: number }>();
  const profileOf = (input: IngestInput) => {
    const known = profiles.get(input.fingerprint);
    if (known && sameProfile(known.input, input)) return known.id;
    const { event, fingerprint, scope, family, candidate, rule } = input;
    const info = share(JSON.stringify({ service: candidate.service, title: candidate.title }));
    const shape = share(shapeOf(candidate));
    const id = share(`${shape},${groupOf(fingerprint, scope, family)},${serviceOf(candidate.service)},${rule?.minEvents ?? 1},${rule?.windowMs ?? 0},${severityWeight(event.severity)},${info}`);
    profiles.set(fingerprint, { input, id });
    return id;
  };
  const eventArgs: (string | number)[] = [];
  for (const [i, input] of inputs.entries()) {
    const { event, fingerprint, candidate } = input;
    const light = knownOpen.has(fingerprint) && after[i]! > ctx.sampleCap;
    eventArgs.push(event.id, event.time, light ? '' : JSON.stringify(event), candidate.id, profileOf(input));
  }
  const allKeys = [...fixedKeys, ...groupKeys, ...serviceKeys];
  return [
    allKeys.length, ...allKeys,
    ctx.prefix, ctx.nowMs, ctx.sampleCap, ctx.options.caps?.perHour ?? 0, ctx.options.caps?.perServiceHour ?? 0, ctx.msLeftInHour,
    groups.size, strings.length, inputs.length,
    ...groupArgs, ...strings, ...eventArgs,
  ];
}

/** A candidate record without its id and first event, as JSON: what the events of a family share. */
function shapeOf(candidate: Incident): string {
  const { id: _id, firstEvent: _firstEvent, ...shape } = candidate;
  return JSON.stringify(shape);
}

/** Same group, service, opening rule, weight and candidate record (callers build a family's candidates from one base). */
function sameProfile(a: IngestInput, b: IngestInput): boolean {
  return a.scope === b.scope && a.family === b.family && a.event.severity === b.event.severity
    && (a.rule?.minEvents ?? 1) === (b.rule?.minEvents ?? 1) && (a.rule?.windowMs ?? 0) === (b.rule?.windowMs ?? 0)
    && sameShape(a.candidate, b.candidate);
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
