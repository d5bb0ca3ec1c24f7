import { createAuditLog } from '../../adapters/redis/audit-log.js';
import { createCellLocator } from '../../adapters/redis/cell-locator.js';
import type { RedisClient } from '../../adapters/redis/connect.js';
import { createIncidentStore } from '../../adapters/redis/incident-store.js';
import { cellPrefixes } from '../../domain/cells.js';
import type { AuditLog } from '../../ports/audit.js';
import type { IncidentStore } from '../../ports/incident-store.js';
import { mergeAudits } from './merged-audit.js';
import { createRoutedStore } from './routed-store.js';

/**
 * The incident records and audit trail of every cell (and the home prefix's trail), for the
 * command line's readers and the surfaces that list across cells; nothing is ingested through
 * the store, so every event's cell is the poll's business.
 */
export function cellReaders(redis: RedisClient, config: { MEDIC_REDIS_PREFIX: string; MEDIC_REDIS_CELLS: number }): { store: IncidentStore; audit: AuditLog } {
  const prefixes = cellPrefixes(config.MEDIC_REDIS_PREFIX, config.MEDIC_REDIS_CELLS);
  const stores = prefixes.map((prefix) => createIncidentStore(redis, prefix));
  const store = stores.length === 1 ? stores[0]! : createRoutedStore(stores, createCellLocator(redis, prefixes), () => 0);
  // The home prefix first: appends go there, beside the gateway's records; then every cell's trail.
  const trails = [...new Set([config.MEDIC_REDIS_PREFIX, ...prefixes])];
  return { store, audit: mergeAudits(trails.map((prefix) => createAuditLog(redis, prefix))) };
}
