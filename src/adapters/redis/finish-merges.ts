import type { RedisClient } from './connect.js';
import { z } from 'zod';
import { PIPELINE_ACTOR, type AuditEvent } from '../../domain/audit.js';
import { canTransition, type Incident } from '../../domain/incident.js';

/** A journaled record change from the family-merge script. */
const PendingMerge = z.object({
  /** The incident that absorbed this one's events; absent when this one became the survivor family's. */
  into: z.string().optional(),
  family: z.string(),
  fingerprint: z.string(),
  at: z.union([z.string(), z.number()]),
});

const DELETE_IF_SAME = "if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end return 0";
const MAX_HOPS = 64;

// The store's update, passed in: this module is a part of the store and imports nothing of it.
type Update = (id: string, mutate: (incident: Incident) => { incident: Incident; audit: AuditEvent[] } | undefined) => Promise<Incident>;

/**
 * Writes what the merge script moved into the incident records, each change with its audit
 * record under the record's version check, then drops the journal entry. Every change is
 * idempotent, so a worker killed half-way finishes the job on the next poll without a second
 * audit record. Returns the incidents whose card should be refreshed.
 */
export async function finishMerges(redis: RedisClient, prefix: string, update: Update): Promise<string[]> {
  const key = `${prefix}merges:pending`;
  const pending = await redis.hgetall(key);
  const touched: string[] = [];
  for (const [id, raw] of Object.entries(pending)) {
    const change = PendingMerge.parse(JSON.parse(raw));
    const at = new Date(Number(change.at)).toISOString();
    await update(id, (incident) => {
      if (incident.fingerprint === change.fingerprint && incident.mergedInto === change.into) return undefined;
      return {
        incident: {
          ...incident,
          // A merged-away incident is done: its card points to the survivor and its analysis stops.
          state: change.into && canTransition(incident.state, 'closed') ? 'closed' : incident.state,
          fingerprint: change.fingerprint, mergedInto: change.into, family: incident.family && { ...incident.family, groupId: change.family }, updatedAt: at,
        },
        audit: [{
          at, action: change.into ? 'incident.merged' : 'incident.family-merged', outcome: 'done', actor: PIPELINE_ACTOR,
          reason: change.into ? `its family was found to be the same as ${change.into}'s; its events now count there` : 'its family was found to be the same as another, whose fingerprint it now holds',
          details: { into: change.into, family: change.family, fingerprint: change.fingerprint },
        }],
      };
    });
    touched.push(id);
    if (change.into) {
      const into = change.into;
      await update(into, (incident) => incident.mergedFrom.includes(id) ? undefined : {
        incident: { ...incident, mergedFrom: [...incident.mergedFrom, id], updatedAt: at },
        audit: [{ at, action: 'incident.absorbed', outcome: 'done', actor: PIPELINE_ACTOR, reason: `the events of ${id} joined this incident: their families are one`, details: { from: id } }],
      });
      touched.push(into);
    }
    await redis.eval(DELETE_IF_SAME, 1, key, id, raw);
  }
  return touched;
}

/** The incident an id ended in after every merge (itself when it never merged). */
export async function resolveMerged(redis: RedisClient, prefix: string, id: string): Promise<string> {
  let current = id;
  for (let hops = 0; hops < MAX_HOPS; hops += 1) {
    const next = await redis.hget(`${prefix}merged`, current);
    if (next === null) return current;
    current = next;
  }
  return current;
}
