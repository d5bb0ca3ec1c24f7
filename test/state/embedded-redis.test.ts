import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { isRedisReachable } from '../../src/adapters/redis/connect.js';
import { startEmbeddedRedis } from '../../src/adapters/redis/embedded-redis.js';

describe('the embedded Redis', () => {
  it('starts redis-server with AOF and noeviction under the data directory, and stops it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'medic-redis-'));
    const embedded = await startEmbeddedRedis(dir);
    try {
      const redis = new Redis(embedded.url, { maxRetriesPerRequest: 1 });
      expect(await redis.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
      expect(await redis.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
      expect(await redis.config('GET', 'dir')).toEqual(['dir', join(dir, 'redis')]);
      redis.disconnect();
    } finally {
      await embedded.stop();
    }
    expect(await isRedisReachable(embedded.url, 300)).toBe(false);
    await rm(dir, { recursive: true, force: true });
  });
});
