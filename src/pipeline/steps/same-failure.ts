import { PIPELINE_ACTOR } from '../../domain/audit.js';
import { failureSignature, familyIdOf } from '../../domain/failure-signature.js';
import type { Incident, SameFailureLink } from '../../domain/incident.js';
import { isOverflowFingerprint } from '../../domain/storm-policy.js';
import { presentIncidentTitle } from '../../presenters/incident-title.js';
import type { PipelineDeps } from '../pipeline-deps.js';
import type { Step } from '../step.js';

/** A holder found closed is replaced; a chain of closed ones ends after this many. */
const MAX_STALE = 3;

/**
 * Before anything is posted: is another service's open incident the same failure (same exception
 * and top in-app frames, or the same family in the same repository)? The first incident analysed
 * for a signature holds it; a later one from another service links to it, says so on its card, and
 * proposes no fix of its own (the holder's card carries it). Safe to re-run: the claim is atomic
 * and idempotent, and the holder's back-link is added once.
 */
export const sameFailureStep: Step = {
  name: 'same-failure',
  async run(incident, deps) {
    if (!deps.failureLinks || isOverflowFingerprint(incident.fingerprint)) return { patch: {}, details: { checked: false } };
    const signature = failureSignature(incident.firstEvent, familyIdOf(incident), deps.repositoryOf);
    if (!signature) return { patch: {}, details: { checked: true, signature: 'none' } };
    let holder = await deps.failureLinks.claim(signature.key, incident.id);
    for (let stale = 0; holder !== incident.id && stale < MAX_STALE; stale++) {
      const first = await openHolder(holder, deps);
      if (first?.service === incident.service) return { patch: {}, details: { checked: true, signature: signature.kind, sameService: first.id } };
      if (first) {
        const link: SameFailureLink = { incidentId: first.id, service: first.service, title: presentIncidentTitle(first), kind: signature.kind, ...(first.card ? { card: first.card } : {}) };
        await linkBack(first.id, incident, deps);
        return { patch: { sameFailureAs: link }, details: { checked: true, signature: signature.kind, sameFailureAs: first.id, service: first.service } };
      }
      holder = await deps.failureLinks.claim(signature.key, incident.id, holder);
    }
    return { patch: {}, details: { checked: true, signature: signature.kind, holder: holder === incident.id } };
  },
};

/** The holder as it stands after every merge, unless it is gone or closed. */
async function openHolder(id: string, deps: PipelineDeps): Promise<Incident | undefined> {
  const first = await deps.store.get(await deps.store.resolve(id));
  return first && first.state !== 'closed' ? first : undefined;
}

/** The holder learns who else reports its failure (once, audited) and its card says so. */
async function linkBack(firstId: string, incident: Incident, deps: PipelineDeps): Promise<void> {
  const at = deps.clock().toISOString();
  const first = await deps.store.update(firstId, (current) => {
    if (current.sameFailures.some((s) => s.incidentId === incident.id)) return undefined;
    return {
      incident: { ...current, sameFailures: [...current.sameFailures, { incidentId: incident.id, service: incident.service }], updatedAt: at },
      audit: [{ at, action: 'incident.same-failure', outcome: 'done', actor: PIPELINE_ACTOR, details: { incident: incident.id, service: incident.service } }],
    };
  });
  await deps.requestCard(first.id, first.version, 'final').catch((error: unknown) => deps.logger.warn({ incidentId: first.id, err: error }, 'could not request the first card'));
}

/**
 * The link with the first incident's card, when the first had posted none yet at link time (two
 * analyses started together): the card step asks once more, so the second card can link to it.
 */
export async function withHolderCard(incident: Incident, deps: PipelineDeps): Promise<SameFailureLink | undefined> {
  const same = incident.sameFailureAs;
  if (!same || same.card) return same;
  const card = (await deps.store.get(same.incidentId))?.card;
  return card ? { ...same, card } : same;
}

