import { z } from 'zod';
import type { IncidentStore, Mutation } from '../src/ports/incident-store.js';
import { PIPELINE_ACTOR } from '../src/domain/audit.js';
import type { Incident } from '../src/domain/incident.js';
import { isOverflowFingerprint, presentOverflowTitle } from '../src/domain/storm-policy.js';
import { triageOverflow } from '../src/analysts/overflow-triage.js';
import type { RequestCard } from '../src/ports/card-delivery.js';
import type { JobDefinition } from '../src/queue/job-definition.js';

export interface RefreshCardDeps {
  store: IncidentStore;
  /** The card delivery: it renders the record (the overflow's families included) and posts or updates. */
  requestCard: RequestCard;
  clock: () => Date;
  /** A verified incident that counted new events may have regressed: it reopens (see reopen-regression.ts). */
  reopen?: (incidentId: string) => Promise<Incident | undefined>;
}

const RefreshCardPayload = z.object({ incidentId: z.string().min(1) });

/**
 * Shows an incident's current event count on its card. Enqueued throttled (one job per incident
 * per MEDIC_CARD_REFRESH_S, see Queues.enqueueCardRefresh), so a storm costs one chat.update per
 * incident per period. The overflow incident has no analysis to post its card: this job asks for it.
 */
export function createRefreshCardJob(deps: RefreshCardDeps): JobDefinition<z.infer<typeof RefreshCardPayload>> {
  return {
    queue: 'refresh-card',
    schema: RefreshCardPayload,
    attempts: 3,
    backoffMs: 1_000,
    concurrency: 4,
    async perform({ incidentId }) {
      await refreshCard(incidentId, deps);
    },
  };
}

export async function refreshCard(incidentId: string, deps: RefreshCardDeps): Promise<Incident | undefined> {
  let incident = await deps.store.get(incidentId);
  if (incident?.state === 'closed' && incident.resolution?.kind === 'verified' && deps.reopen) incident = (await deps.reopen(incidentId)) ?? incident;
  // A closed card says how it was resolved; the count no longer changes it. A merged one says where its events went.
  if (!incident || (incident.state === 'closed' && !incident.mergedInto)) return incident;
  if (isOverflowFingerprint(incident.fingerprint)) incident = await showOverflow(incident, deps);
  if (incident.card || isOverflowFingerprint(incident.fingerprint)) await deps.requestCard(incident.id, incident.version, 'final');
  return incident;
}

/**
 * Keeps the overflow title's family count and its offline triage current (its one card is posted
 * by the delivery, by key). A change of the family named most likely is audited.
 */
async function showOverflow(incident: Incident, deps: RefreshCardDeps): Promise<Incident> {
  const at = deps.clock().toISOString();
  const title = presentOverflowTitle(await deps.store.suppressedFamilies(incident.fingerprint));
  const triage = triageOverflow(await deps.store.overflowFamilies(incident.fingerprint));
  const triaged = (current: Incident) => (triage ? { rca: triage.rca, recommendation: triage.recommendation, provenance: { ...current.provenance, rca: OFFLINE } } : {});
  return deps.store.update(incident.id, (current) => {
    const triageMoved = triage !== undefined && (current.rca?.rootCause !== triage.rca.rootCause || current.rca.summary !== triage.rca.summary);
    if (current.title === title && !triageMoved) return undefined;
    const audit: Mutation['audit'] = [];
    if (triage && headline(current.rca?.rootCause) !== headline(triage.rca.rootCause)) {
      audit.push({ at, action: 'incident.overflow-triage', outcome: 'done', actor: PIPELINE_ACTOR, details: { top: triage.top.fingerprint, service: triage.top.service, count: triage.top.count, families: triage.rca.sequenceOfEvents.length } });
    }
    return { incident: { ...current, title, ...triaged(current), updatedAt: at }, audit };
  });
}

const OFFLINE = { analyst: 'offline', tokens: 0 };

/** "Most likely the "…" failure in …": what the triage names, without the counts that move with every event. */
function headline(rootCause: string | undefined): string | undefined {
  return rootCause?.replace(/: \d+ of the overflow's [\s\S]*$/, '');
}
