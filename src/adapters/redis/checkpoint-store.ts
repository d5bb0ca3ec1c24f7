import type { RedisClient } from './connect.js';

/** The poll checkpoint per log source, advanced only after its events are ingested. */
export interface CheckpointStore {
  get(source: string): Promise<string | undefined>;
  set(source: string, checkpoint: string): Promise<void>;
}

export function createCheckpointStore(redis: RedisClient, prefix: string): CheckpointStore {
  return {
    async get(source) {
      return (await redis.get(`${prefix}checkpoint:${source}`)) ?? undefined;
    },
    async set(source, checkpoint) {
      await redis.set(`${prefix}checkpoint:${source}`, checkpoint);
    },
  };
}
