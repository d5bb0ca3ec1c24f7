import { splitDecisionKey } from '../domain/split-decision-key.js';
import type { ErrorEvent } from '../domain/event.js';
import { fingerprintEvent, type Fingerprint } from '../domain/fingerprint.js';
import { applyGroupingRules, type GroupingRule } from '../domain/grouping-rules.js';
import { shortHash } from '../domain/hash.js';
import { createIncident, type Incident } from '../domain/incident.js';
import { hourOf, openRuleFor, overflowFingerprint, presentOverflowTitle, type StormSettings } from '../domain/storm-policy.js';
import { maskMessage } from '../domain/templates/mask-message.js';
import type { MinedTemplate, TemplateMiner } from '../domain/templates/template-miner.js';
import type { IncidentStore, IngestInput, IngestOptions, IngestStatus } from '../ports/incident-store.js';

export interface IngestDeps {
  store: IncidentStore;
  enqueueAnalysis(incidentId: string, round: number): Promise<void>;
  /** First-round analyses of many incidents in one round trip; without it, one enqueueAnalysis each. */
  enqueueAnalyses?(incidentIds: readonly string[]): Promise<void>;
  /** A throttled card refresh, for incidents whose count moved (and the overflow card). */
  enqueueCardRefresh?(incidentId: string): Promise<void>;
  /** The same refresh for many incidents in one round trip. */
  enqueueCardRefreshes?(incidentIds: readonly string[]): Promise<void>;
  /** Opening rules and caps; without them every family opens at its first event, uncapped. */
  storm?: Pick<StormSettings, 'open' | 'rules' | 'maxNewPerHour' | 'maxNewPerServiceHour'>;
  clock: () => Date;
  /** Called once per event, in input order, with what became of it ('' when held or a duplicate). */
  onIngested?: (status: IngestStatus, incidentId: string, event: ErrorEvent, fingerprint: string) => void;
  /** The online template miner: its families decide incident membership. */
  miner?: TemplateMiner;
  /** The operator's grouping rules: a matching rule fixes or splits the mined family. */
  rules?: readonly GroupingRule[];
  /**
   * The declared service a log's service name belongs to (its name or an alias); absent or
   * undefined: the log's name. Events of one service join one family whichever name they came under.
   */
  serviceOf?: (logName: string) => string | undefined;
  /** Called with 'family-merge' once the events (and any family merges) are in Redis, before the merged records are written. */
  afterStep?: (step: string) => void;
}

/** Events per store call; the next batch is prepared while Redis runs the last one. */
const BATCH = 4_000;
/** Events prepared between two turns of the event loop (a few milliseconds of work). */
const YIELD_EVERY = 500;

/** The message template an incident family is keyed on: the first line, variable parts masked. */
export function templateOf(message: string): string {
  const firstLine = message.split('\n', 1)[0] ?? '';
  return maskMessage(firstLine).join(' ') || '(empty message)';
}

/** An approver's Split: the family divides by a field's value, for every future event. */
function splitFamily(family: MinedTemplate, event: ErrorEvent, field: string | undefined): MinedTemplate {
  if (field === undefined) return family;
  const value = (event.fields[field] ?? event.correlationIds[field] ?? '').slice(0, 128);
  return { groupId: `${family.groupId}~${field}=${value}`, template: `${family.template} [${field}=${value}]` };
}

/** An approver's Merge: the merged fingerprint's events join the survivor's. */
function aliased(fingerprint: Fingerprint, aliases: Map<string, string>): Fingerprint {
  const to = aliases.get(fingerprint.key);
  if (to === undefined) return fingerprint;
  const cut = to.indexOf(':');
  return { ...fingerprint, key: to, scope: to.slice(0, cut), family: to.slice(cut + 1) };
}

function templateFamily(firstLine: string) {
  const template = templateOf(firstLine);
  return { groupId: shortHash(template), template };
}

/**
 * Turns polled events into incidents: each event is recorded once (by its persistent id), joins
 * the open incident of its family or counts towards opening one, and every new incident gets its
 * analysis job. Events are durable in Redis before this returns, so the caller may then advance
 * its checkpoint. Incidents whose count moved get a throttled card refresh.
 */
export async function ingestEvents(events: ErrorEvent[], deps: IngestDeps): Promise<Record<IngestStatus, number>> {
  const counts: Record<IngestStatus, number> = { created: 0, absorbed: 0, duplicate: 0, held: 0, overflow: 0 };
  const at = deps.clock();
  const atIso = at.toISOString();
  const options = ingestOptions(deps, at, events[0]);
  const moved = new Set<string>();
  const decisions = await deps.store.groupingDecisions();
  // A storm repeats a few families and services: their hashes and opening rules are worked out once.
  const idPrefixes = new Map<string, string>();
  const rules = new Map<string, IngestInput['rule']>();
  const services = new Map<string, string>();
  const serviceOf = (logName: string) => {
    let service = services.get(logName);
    if (service === undefined) services.set(logName, (service = deps.serviceOf?.(logName) ?? logName));
    return service;
  };
  const ruleOf = (service: string) => {
    if (!deps.storm) return undefined;
    if (!rules.has(service)) {
      const rule = openRuleFor(service, deps.storm);
      rules.set(service, { minEvents: rule.minEvents, windowMs: rule.windowS * 1000 });
    }
    return rules.get(service);
  };
  // The candidate records of a family differ only in id and first event: built from one base,
  // so the store can tell they share the rest without comparing it.
  const bases = new Map<string, Incident>();
  const candidateBase = (fingerprint: Fingerprint, event: ErrorEvent, family: MinedTemplate | undefined): Incident => {
    const key = `${fingerprint.key}\u0000${fingerprint.title}\u0000${event.service}\u0000${event.severity}\u0000${family?.groupId ?? ''}\u0000${family?.template ?? ''}`;
    let base = bases.get(key);
    if (base === undefined) {
      const created = createIncident({ id: '', fingerprint: fingerprint.key, title: fingerprint.title, event, at: atIso });
      base = family ? { ...created, family } : created;
      bases.set(key, base);
    }
    return base;
  };
  const toInput = (event: ErrorEvent): IngestInput => {
    const firstLine = event.message.split('\n', 1)[0] ?? '';
    // The family the miner learns from the stream decides membership; its merges move incidents.
    const mined = deps.miner?.add(firstLine);
    const merges = deps.miner?.takeMerges();
    const ruled = deps.rules?.length ? applyGroupingRules(deps.rules, event, mined ?? templateFamily(firstLine)) : mined;
    const family = ruled && decisions.splits.size > 0 ? splitFamily(ruled, event, decisions.splits.get(splitDecisionKey(event.service, ruled.groupId))) : ruled;
    const fingerprint = aliased(fingerprintEvent(event, family ?? templateOf(firstLine), serviceOf(event.service)), decisions.aliases);
    let idPrefix = idPrefixes.get(fingerprint.key);
    if (idPrefix === undefined) {
      idPrefix = `inc-${shortHash(fingerprint.key).slice(0, 12)}-`;
      idPrefixes.set(fingerprint.key, idPrefix);
    }
    const id = `${idPrefix}${Math.floor(Date.parse(event.time) / 1000).toString(36)}`;
    return {
      event, fingerprint: fingerprint.key, scope: fingerprint.scope, family: fingerprint.family,
      merges: merges && merges.length > 0 ? merges : undefined,
      candidate: { ...candidateBase(fingerprint, event, family), id, firstEvent: event },
      rule: ruleOf(event.service),
    };
  };
  // One batch is in Redis while the next is prepared; results are taken in input order, and a
  // failed batch stops the ingest before the next one is sent. A batch that opened incidents has
  // their analyses enqueued at once, so the first cards come while the storm is still read.
  let inFlight: Promise<void> | undefined;
  let enqueued: Promise<unknown> = Promise.resolve();
  for (let i = 0; i < events.length; i += BATCH) {
    const inputs: IngestInput[] = [];
    for (let j = i; j < Math.min(i + BATCH, events.length); j++) {
      inputs.push(toInput(events[j]!));
      // Work of the same process (analyses, card deliveries, the web role's acks) runs in between.
      if ((j - i) % YIELD_EVERY === YIELD_EVERY - 1) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await inFlight;
    inFlight = deps.store.ingest(inputs, at.getTime(), options).then((results) => {
      let created = false;
      for (const [j, result] of results.entries()) {
        counts[result.status]++;
        deps.onIngested?.(result.status, result.incidentId, inputs[j]!.event, inputs[j]!.fingerprint);
        if (result.status === 'absorbed' || result.status === 'overflow') moved.add(result.incidentId);
        created ||= result.status === 'created';
      }
      // A failure here is retried by the enqueue after the last batch (and by the next poll).
      if (created && i + BATCH < events.length) enqueued = enqueued.then(() => enqueuePending(deps)).catch(() => undefined);
    });
    // Awaited before the next batch is sent (or after the last); the loop yields meanwhile, so
    // a failure must count as handled until then.
    inFlight.catch(() => undefined);
  }
  await inFlight;
  await enqueued;
  deps.afterStep?.('family-merge');
  // Merges are journaled by the ingest script; their records and audit are written here (and
  // by the next poll, when a worker died first).
  for (const id of await deps.store.finishMerges()) moved.add(id);
  await enqueuePending(deps);
  // One enqueue per incident per poll; the queue's dedup keeps it to one refresh per period.
  if (deps.enqueueCardRefreshes) await deps.enqueueCardRefreshes([...moved]);
  else if (deps.enqueueCardRefresh) for (const id of moved) await deps.enqueueCardRefresh(id);
  return counts;
}

function ingestOptions(deps: IngestDeps, at: Date, sample: ErrorEvent | undefined): IngestOptions {
  if (!deps.storm || !sample) return {};
  return {
    caps: { perHour: deps.storm.maxNewPerHour, perServiceHour: deps.storm.maxNewPerServiceHour },
    overflow: overflowIncident(at, sample),
  };
}

/**
 * The hour's overflow incident: reported at once (never analysed), its card posted by the
 * refresh job, its title counting the suppressed families.
 */
export function overflowIncident(at: Date, sample: ErrorEvent): Incident {
  const hour = hourOf(at.getTime());
  const fingerprint = overflowFingerprint(hour);
  const title = presentOverflowTitle(1);
  const event = { ...sample, id: `medic:${fingerprint}`, source: 'medic', service: 'medic', message: title, raw: title, correlationIds: {}, fields: {} };
  const base = createIncident({ id: `inc-overflow-${hour.toString(36)}-${at.getTime().toString(36)}`, fingerprint, title, event, at: at.toISOString() });
  return {
    ...base,
    state: 'reported',
    proposalNote: 'Medic did not analyse these families: the hourly cap on new incidents (MEDIC_MAX_NEW_INCIDENTS_PER_HOUR, MEDIC_MAX_NEW_INCIDENTS_PER_SERVICE_HOUR) was reached. Their events are counted here until the hour is over.',
  };
}

/** Enqueues every incident still waiting for its first analysis job — after a crash, too. */
export async function enqueuePending(deps: IngestDeps): Promise<number> {
  const pending = await deps.store.pendingAnalysis();
  if (deps.enqueueAnalyses) await deps.enqueueAnalyses(pending);
  else for (const id of pending) await deps.enqueueAnalysis(id, 0);
  // Cleared only once enqueued: a crash in between re-enqueues, which the job id makes a no-op.
  await Promise.all(pending.map((id) => deps.store.clearPending(id)));
  return pending.length;
}
