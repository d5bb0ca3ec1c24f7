import type { RedisClient } from './connect.js';

/** One record of the audit stream: its stream id and the record as JSON. */
export interface AuditRow {
  id: string;
  json: string;
}

/**
 * Hands the audit stream past a cursor to `deliver`, a batch at a time. The cursor (the last
 * stream id delivered) advances only after `deliver` resolves, so nothing is skipped: a batch that
 * failed, or whose worker died, is delivered again on the next run (at least once).
 */
export async function drainAuditStream(
  redis: RedisClient,
  prefix: string,
  cursorKey: string,
  batch: number,
  deliver: (rows: AuditRow[]) => Promise<void>,
): Promise<number> {
  let delivered = 0;
  for (;;) {
    const cursor = (await redis.get(cursorKey)) ?? '0-0';
    const rows = await redis.xrange(`${prefix}audit`, `(${cursor}`, '+', 'COUNT', batch);
    if (rows.length === 0) return delivered;
    await deliver(rows.map(([id, fields]) => ({ id, json: fields[1] ?? '{}' })));
    await redis.set(cursorKey, rows.at(-1)?.[0] ?? cursor);
    delivered += rows.length;
  }
}
