import type { RedisClient } from './connect.js';

const MAX_REMEMBERED = 10_000;

/** Which cell holds an incident: answered from Redis once per id (an incident never changes cell). */
export interface CellLocator {
  /** The cell index, or undefined when no cell holds the incident (unknown, or past its retention). */
  cellOf(incidentId: string): Promise<number | undefined>;
}

/** Asks every cell at once whether it holds the record; with one cell the answer is always 0. */
export function createCellLocator(redis: RedisClient, prefixes: string[]): CellLocator {
  const known = new Map<string, number>();
  return {
    async cellOf(incidentId) {
      if (prefixes.length === 1) return 0;
      const hit = known.get(incidentId);
      if (hit !== undefined) return hit;
      const found = await Promise.all(prefixes.map((prefix) => redis.exists(`${prefix}incident:${incidentId}`)));
      const cell = found.findIndex((n) => n > 0);
      if (cell < 0) return undefined;
      if (known.size >= MAX_REMEMBERED) known.delete(known.keys().next().value ?? '');
      known.set(incidentId, cell);
      return cell;
    },
  };
}
