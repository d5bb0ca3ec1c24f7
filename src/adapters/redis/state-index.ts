import type { RedisClient } from './connect.js';

/**
 * Per-state sorted sets (`incidents:state:<state>`, scored by creation like the `incidents` zset),
 * kept by the scripts that change state (INGEST_BATCH, UPDATE_INCIDENT, open-from-overflow), so a
 * listing by state never scans newest-N records and drops older open ones.
 */
export const stateIndexKey = (prefix: string) => (state: string) => `${prefix}incidents:state:${state}`;

const VERSION = 'v1';

export interface StateIndex {
  /** The newest `limit` ids across `states`, newest first. */
  newest(states: readonly string[], limit: number): Promise<string[]>;
}

export function createStateIndex(redis: RedisClient, prefix: string): StateIndex {
  const key = stateIndexKey(prefix);
  const built = `${prefix}incidents:state-index`;
  const incidents = `${prefix}incidents`;

  /**
   * Incidents recorded before the indexes existed are indexed once, page by page; from then on the
   * scripts keep them. Runs once per store, before its first listing by state.
   */
  let ready: Promise<void> | undefined;
  const ensureBuilt = () => (ready ??= (async () => {
    if ((await redis.get(built)) === VERSION) return;
    const total = await redis.zcard(incidents);
    for (let start = 0; start < total; start += 500) {
      const rows = await redis.zrange(incidents, start, start + 499, 'WITHSCORES');
      const ids = rows.filter((_, i) => i % 2 === 0);
      const records = ids.length > 0 ? await redis.mget(...ids.map((id) => `${prefix}incident:${id}`)) : [];
      const multi = redis.multi();
      records.forEach((json, i) => {
        const state = json === null ? undefined : (JSON.parse(json) as { state?: string }).state;
        if (state) multi.zadd(key(state), 'NX', rows[i * 2 + 1] ?? '0', ids[i] ?? '');
      });
      await multi.exec();
    }
    await redis.set(built, VERSION);
  })().catch((error: unknown) => {
    ready = undefined;
    throw error;
  }));

  return {
    async newest(states, limit) {
      await ensureBuilt();
      const scored: [string, number][] = [];
      for (const state of new Set(states)) {
        const rows = await redis.zrevrange(key(state), 0, limit - 1, 'WITHSCORES');
        for (let i = 0; i + 1 < rows.length; i += 2) scored.push([rows[i] ?? '', Number(rows[i + 1])]);
      }
      return scored.sort((a, b) => b[1] - a[1]).slice(0, limit).map(([id]) => id);
    },
  };
}
