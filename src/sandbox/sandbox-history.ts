import type { RedisClient } from '../adapters/redis/connect.js';
import type { SandboxMessage, SandboxState } from './sandbox-state.js';

/** Slack keeps a channel's history; the sandbox keeps the newest 500 messages, enough for a demo day. */
export const HISTORY_LIMIT = 500;

export interface SandboxHistory {
  /** Saved messages, oldest first (ephemerals are never saved: Slack does not keep them either). */
  load(): Promise<SandboxMessage[]>;
  /** Saves what changed since the last save and forgets what fell out of the bound. */
  save(state: SandboxState): Promise<void>;
}

/**
 * The sandbox's channel history in Redis, so a restarted Medic finds the cards it posted: the
 * page shows them again and `chat.update` of an old card still finds its message. One hash of
 * messages by ts and one sorted set ordering them, under one hash tag (a Redis Cluster keeps both
 * on one slot).
 */
export function createSandboxHistory(options: { redis: RedisClient; prefix: string; channel: string; limit?: number }): SandboxHistory {
  const { redis } = options;
  const limit = options.limit ?? HISTORY_LIMIT;
  const tag = `${options.prefix}{sandbox:${options.channel}}`;
  const messages = `${tag}:messages`;
  const order = `${tag}:order`;
  const score = (ts: string) => Number(ts);

  return {
    async load() {
      const ids = await redis.zrange(order, -limit, -1);
      if (ids.length === 0) return [];
      const rows = await redis.hmget(messages, ...ids);
      return rows.flatMap((row) => {
        if (!row) return [];
        try {
          return [JSON.parse(row) as SandboxMessage];
        } catch {
          return []; // a damaged row costs one message, never the whole history
        }
      });
    },
    async save(state) {
      state.trim(limit);
      if (state.changed.size === 0 && state.deleted.size === 0) return;
      const changed = [...state.changed];
      const deleted = [...state.deleted];
      state.changed.clear();
      state.deleted.clear();
      const multi = redis.multi();
      for (const ts of changed) {
        const message = state.find(ts);
        if (!message) continue;
        multi.hset(messages, ts, JSON.stringify(message));
        multi.zadd(order, score(ts), ts);
      }
      if (deleted.length > 0) {
        multi.hdel(messages, ...deleted);
        multi.zrem(order, ...deleted);
      }
      try {
        await multi.exec();
      } catch (error) {
        // Not saved: keep the marks so the next save retries them.
        for (const ts of changed) state.changed.add(ts);
        for (const ts of deleted) state.deleted.add(ts);
        throw error;
      }
    },
  };
}
