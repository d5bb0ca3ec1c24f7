import keySlot from 'cluster-key-slot';

/**
 * Cells: Medic's keyspace cut into K parts, each a whole Medic (incident state, families, event
 * windows, queues, audit) under a hash tag of its own, so a Redis Cluster spreads them over its
 * masters. A service belongs to exactly one cell; every multi-key script of a service's incidents
 * touches that cell's slot only. The configured prefix stays the home of the state Medic keeps
 * across services (the Slack pacer and ledgers, the gateway's approvals and tool-call audit, the
 * clicks the web role hands to a worker). One cell is the configured prefix itself: the single
 * keyspace Medic always had.
 */

const SLOTS = 16_384;
/** How close to its place on the ring a cell's slot must fall (a few hundred tries at most). */
const SLOT_WINDOW = 64;

/**
 * The K key prefixes, cell 0 first. Cell n's tag is chosen so its slot falls in the middle of the
 * n-th of K equal runs of the slot ring: a cluster whose masters hold equal runs of slots (what
 * `redis-cli --cluster create` makes) then holds K / masters cells each, whatever the tag.
 */
export function cellPrefixes(prefix: string, count: number): string[] {
  if (count <= 1) return [prefix];
  const tag = /^\{(.+)\}:$/.exec(prefix)?.[1];
  if (tag === undefined) throw new Error(`cells need a hash-tagged prefix such as {medic}: (got ${prefix})`);
  const prefixes: string[] = [];
  for (let n = 0; n < count; n++) {
    const from = Math.round(((n + 0.5) * SLOTS) / count) - SLOT_WINDOW / 2;
    for (let attempt = 0; ; attempt++) {
      const candidate = `{${tag}.${n}-${attempt}}:`;
      if ((keySlot(candidate) - from + SLOTS) % SLOTS < SLOT_WINDOW) {
        prefixes.push(candidate);
        break;
      }
    }
  }
  return prefixes;
}

/** The cell that holds a service's state: a stable hash of its name (FNV-1a), the same in every process. */
export function cellOfService(service: string, count: number): number {
  if (count <= 1) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < service.length; i++) {
    hash ^= service.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % count;
}
