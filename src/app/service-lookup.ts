import type { IncidentStore } from '../ports/incident-store.js';

const MAX_REMEMBERED = 5_000;

/**
 * An incident's log service name, read from its record once: the service of an incident never
 * changes, so every git call of an analysis routes on one Redis read.
 */
export function createServiceLookup(store: Pick<IncidentStore, 'get'>): (incidentId: string) => Promise<string | undefined> {
  const known = new Map<string, string>();
  return async (incidentId) => {
    const hit = known.get(incidentId);
    if (hit !== undefined) return hit;
    const service = (await store.get(incidentId))?.service;
    if (service === undefined) return undefined;
    if (known.size >= MAX_REMEMBERED) known.delete(known.keys().next().value ?? '');
    known.set(incidentId, service);
    return service;
  };
}
