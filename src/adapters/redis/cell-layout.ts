import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { RedisClient } from './connect.js';

/** Where the cell count that the state under a prefix is laid out in is kept. */
export const cellLayoutKey = (prefix: string) => `${prefix}layout:cells`;

const refusal = (prefix: string, cells: number, laidOut: number, why: string) => new MedicError(
  ErrorCode.ConfigInvalid,
  `MEDIC_REDIS_CELLS is ${cells}, but the state under ${prefix} is laid out in ${laidOut} cell${laidOut === 1 ? '' : 's'}${why}: `
  + 'a service\'s cell follows from the count, so its incidents would be left where nothing reads them. '
  + `Set MEDIC_REDIS_CELLS=${laidOut} again, or start a new layout under another MEDIC_REDIS_PREFIX (the old one stays readable with its own count).`,
);

/**
 * The first start under a prefix records its cell count; every later start (and the command
 * line) must use the same one, or is refused with what to set. State written before the count
 * was recorded is one cell's: the prefix's own incidents.
 */
export async function claimCellLayout(redis: RedisClient, prefix: string, cells: number): Promise<void> {
  const key = cellLayoutKey(prefix);
  let recorded = await redis.get(key);
  if (recorded === null) {
    if (cells > 1 && (await redis.zcard(`${prefix}incidents`)) > 0) throw refusal(prefix, cells, 1, ' (its incidents were recorded before cells)');
    if ((await redis.set(key, String(cells), 'NX')) === 'OK') return;
    recorded = await redis.get(key);
  }
  const laidOut = Number(recorded);
  if (laidOut !== cells) throw refusal(prefix, cells, laidOut, '');
}
