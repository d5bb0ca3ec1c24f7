import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { deleteByPrefix } from '../../src/adapters/redis/connect.js';

export const TEST_REDIS_URL = process.env.MEDIC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A real Redis connection with a key prefix of its own; `cleanup` deletes every key under it. */
export async function createTestRedis(): Promise<{ redis: Redis; prefix: string; cleanup: () => Promise<void> }> {
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  const prefix = `medic-test-${randomUUID().slice(0, 8)}:`;
  return {
    redis,
    prefix,
    async cleanup() {
      await deleteByPrefix(redis, prefix);
      redis.disconnect();
    },
  };
}
