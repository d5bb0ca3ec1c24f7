import type { Redis } from 'ioredis';
import { createRedis } from '../adapters/redis/connect.js';
import { resolveRedis } from '../adapters/redis/embedded-redis.js';
import { loadConfig, readEnv } from '../config/load-config.js';
import type { Config } from '../config/schema.js';

/** Config and a Redis connection only, for commands that read state without the pipeline. */
export async function openState(env: NodeJS.ProcessEnv): Promise<{ config: Config; redis: Redis; close(): Promise<void> }> {
  const config = loadConfig(readEnv(env));
  const { url, embedded } = await resolveRedis({ url: config.REDIS_URL, embedded: config.MEDIC_EMBEDDED_REDIS, dataDir: config.MEDIC_DATA_DIR });
  const redis = createRedis(url, 'medic-cli');
  return {
    config,
    redis,
    async close() {
      redis.disconnect();
      await embedded?.stop();
    },
  };
}
