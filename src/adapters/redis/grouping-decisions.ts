import type { RedisClient } from './connect.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { hourOf, isOverflowFingerprint, overflowFingerprint } from '../../domain/storm-policy.js';
import type { IncidentGroupingDecisions } from '../../ports/incident-grouping.js';
import { splitDecisionKey } from '../../domain/split-decision-key.js';
import { MERGE_FINGERPRINT } from './family-merge-script.js';
import { decisionKeys } from './grouping-decision-store.js';
import { createIncidentStore } from './incident-store.js';

const SAMPLE_CAP = 20;

/** Merge and Split as the gateway's handlers run them, after the approver's approval. */
export function createGroupingDecisions(redis: RedisClient, prefix: string, clock: () => Date): IncidentGroupingDecisions {
  const store = createIncidentStore(redis, prefix);
  const keys = decisionKeys(prefix);
  const requireOpen = async (id: string) => {
    const incident = await store.require(id);
    if (isOverflowFingerprint(incident.fingerprint)) throw new MedicError(ErrorCode.ValidationFailed, `${id} is a storm overflow incident: open its families instead.`);
    if ((await store.openIncidentOf(incident.fingerprint)) !== id) throw new MedicError(ErrorCode.InvalidTransition, `${id} no longer holds its family (merged or resolved); only open incidents merge.`);
    return incident;
  };
  return {
    async mergeIncidents({ incidentId, intoIncidentId }) {
      if (incidentId === intoIncidentId) throw new MedicError(ErrorCode.ValidationFailed, 'An incident cannot be merged into itself.');
      const gone = await requireOpen(incidentId);
      const kept = await requireOpen(intoIncidentId);
      const now = clock().getTime();
      // Future events of the merged fingerprint join the survivor's, and so do earlier merges into it.
      const earlier = Object.entries(await redis.hgetall(keys.aliases)).filter(([, to]) => to === gone.fingerprint).map(([from]) => from);
      await redis.hset(keys.aliases, gone.fingerprint, kept.fingerprint, ...earlier.flatMap((from) => [from, kept.fingerprint]));
      // KEYS 1 and 2 are unused here, but a cluster routes and checks every declared key: they
      // name a key under the prefix (an empty name would hash to another slot: CROSSSLOT).
      await redis.eval(
        MERGE_FINGERPRINT, 7, `${prefix}merged`, `${prefix}merged`, `${prefix}merged`, `${prefix}merges:pending`, `${prefix}activity`, `${prefix}pending-analysis`,
        `${prefix}${overflowFingerprint(hourOf(now))}:families`,
        prefix, gone.fingerprint, kept.fingerprint, SAMPLE_CAP, now, kept.family?.groupId ?? kept.fingerprint,
      );
      await store.finishMerges();
      return { incidentId: intoIncidentId };
    },
    async splitFamily({ incidentId, field }) {
      const incident = await requireOpen(incidentId);
      const family = incident.fingerprint.slice(incident.fingerprint.indexOf(':') + 1);
      await redis.hset(keys.splits, splitDecisionKey(incident.service, family), field);
      return { family, field };
    },
  };
}
