import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { Checkable } from '../../ports/service-check.js';
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
 * Why `cells` cannot read or write the state under prefix, or undefined when it can: the count
 * recorded by the first workers to start there differs, or, none recorded, the prefix holds
 * incidents of its own, written before cells (one cell's layout) while cells > 1.
 */
export async function cellLayoutRefusal(redis: RedisClient, prefix: string, cells: number): Promise<MedicError | undefined> {
  const recorded = await redis.get(cellLayoutKey(prefix));
  if (recorded !== null) return Number(recorded) === cells ? undefined : refusal(prefix, cells, Number(recorded), '');
  if (cells > 1 && (await redis.zcard(`${prefix}incidents`)) > 0) return refusal(prefix, cells, 1, ' (its incidents were recorded before cells)');
  return undefined;
}

/**
 * Before the workers write anything: the first start under a prefix records its cell count, and
 * a start with another count is refused with what to set.
 */
export async function claimCellLayout(redis: RedisClient, prefix: string, cells: number): Promise<void> {
  const refused = await cellLayoutRefusal(redis, prefix, cells);
  if (refused) throw refused;
  if ((await redis.set(cellLayoutKey(prefix), String(cells), 'NX')) === 'OK') return;
  // Another start recorded its count meanwhile.
  const raced = await cellLayoutRefusal(redis, prefix, cells);
  if (raced) throw raced;
}

/** doctor's line: whether the configured cell count is the one the state is laid out in. */
export function createCellLayoutCheck(redis: RedisClient, prefix: string, cells: number): Checkable {
  return {
    async check() {
      const refused = await cellLayoutRefusal(redis, prefix, cells);
      const recorded = await redis.get(cellLayoutKey(prefix));
      return {
        name: 'cell layout', adapter: 'redis', ok: refused === undefined,
        detail: refused?.message ?? `${cells} cell${cells === 1 ? '' : 's'} under ${prefix}${recorded === null ? ', recorded when the workers first start' : ''}`,
      };
    },
  };
}
