import { createRedis, type RedisClient } from '../adapters/redis/connect.js';
import { cellLayoutRefusal } from '../adapters/redis/cell-layout.js';
import { resolveRedis } from '../adapters/redis/embedded-redis.js';
import { loadConfig, readEnv } from '../config/load-config.js';
import type { Config } from '../config/schema.js';
import { redisTargetFrom } from '../config/sections/redis.js';

/** Config and a Redis connection only, for commands that read state without the pipeline. */
export async function openState(env: NodeJS.ProcessEnv): Promise<{ config: Config; redis: RedisClient; close(): Promise<void> }> {
  const config = loadConfig(readEnv(env));
  const { target, embedded } = await resolveRedis({ target: redisTargetFrom(config), embedded: config.MEDIC_EMBEDDED_REDIS, dataDir: config.MEDIC_DATA_DIR });
  const redis = createRedis(target, 'medic-cli');
  const close = async () => {
    redis.disconnect();
    await embedded?.stop();
  };
  // Read with the cell count the state is laid out in, or not at all (see cell-layout.ts).
  try {
    const refused = await cellLayoutRefusal(redis, config.MEDIC_REDIS_PREFIX, config.MEDIC_REDIS_CELLS);
    if (refused) throw refused;
  } catch (error) {
    await close();
    throw error;
  }
  return { config, redis, close };
}
