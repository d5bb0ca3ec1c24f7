import type { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { createRedis } from '../adapters/redis/connect.js';
import { resolveRedis } from '../adapters/redis/embedded-redis.js';
import { loadConfig, readEnv } from '../config/load-config.js';
import type { Config } from '../config/schema.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { createMetrics, type Metrics } from '../observability/metrics.js';
import type { Adapters } from './adapters.js';
import { createAdapters } from './create-adapters.js';
import { createMedic, type Medic } from './create-medic.js';

export interface Runtime {
  config: Config;
  redis: Redis;
  redisUrl: string;
  embeddedRedis: boolean;
  logger: Logger;
  metrics: Metrics;
  adapters: Adapters;
  medic: Medic;
  close(): Promise<void>;
}

/**
 * The one place that reads the environment and builds every client: config → Redis (embedded if
 * none answers) → adapters → Medic. `main.ts` and the CLI both start here.
 */
export async function startRuntime(
  env: NodeJS.ProcessEnv,
  options: { logLevel?: string; logDestination?: Writable; chatOut?: Writable } = {},
): Promise<Runtime> {
  const config = loadConfig(readEnv(env));
  const logger = createLogger({ level: options.logLevel ?? config.LOG_LEVEL, destination: options.logDestination });
  const metrics = createMetrics({ defaultMetrics: true });
  const { url, embedded } = await resolveRedis({ url: config.REDIS_URL, embedded: config.MEDIC_EMBEDDED_REDIS, dataDir: config.MEDIC_DATA_DIR });
  if (embedded) logger.info({ url }, 'started an embedded redis-server');
  const redis = createRedis(url);
  redis.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  const adapters = await createAdapters({ config, redis, logger, chatOut: options.chatOut ?? process.stdout });
  const crashAfter = new Set(config.MEDIC_CRASH_AFTER);
  const medic = createMedic({
    config, redis, adapters, logger, metrics,
    afterStep: crashAfter.size > 0 ? (step) => { if (crashAfter.has(step)) process.kill(process.pid, 'SIGKILL'); } : undefined,
  });
  return {
    config, redis, redisUrl: url, embeddedRedis: Boolean(embedded), logger, metrics, adapters, medic,
    async close() {
      await medic.close();
      redis.disconnect();
      await embedded?.stop();
    },
  };
}
