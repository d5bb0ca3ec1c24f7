import { listenOrExplain } from './port-in-use.js';
import type { Writable } from 'node:stream';
import { createRedis, type RedisClient } from '../adapters/redis/connect.js';
import { resolveRedis } from '../adapters/redis/embedded-redis.js';
import { loadConfig, readEnv } from '../config/load-config.js';
import type { Config } from '../config/schema.js';
import { redisTargetFrom } from '../config/sections/redis.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { createMetrics, type Metrics } from '../observability/metrics.js';
import { createSlackSandbox, type SlackSandbox } from '../sandbox/create-slack-sandbox.js';
import type { Adapters } from './adapters.js';
import { createServiceCatalog } from './create-service-catalog.js';
import { medicPaths } from './paths.js';
import { remoteOf } from './repository-dirs.js';
import { chatMode, sandboxRefusal, slackSettings } from './chat-mode.js';
import { ErrorCode, MedicError } from '../domain/errors.js';
import { createAdapters } from './create-adapters.js';
import type { Medic } from './create-medic.js';
import { createMedicCells } from './cells/create-cells.js';

export type Role = 'all' | 'web' | 'worker' | 'cli';

export interface Runtime {
  role: Role;
  config: Config;
  redis: RedisClient;
  redisUrl: string;
  embeddedRedis: boolean;
  logger: Logger;
  metrics: Metrics;
  adapters: Adapters;
  medic: Medic;
  /** The local Slack sandbox, when this process serves it. */
  sandbox?: SlackSandbox;
  /** Whole cards in the terminal mirror (`--verbose`), else one line per card event. */
  verboseChat: boolean;
  /** Where Slack (or the sandbox) reaches Medic; set once the web role listens. */
  eventsUrl: { value: string };
  close(): Promise<void>;
}

/**
 * The one place that reads the environment and builds every client: config → Redis (embedded if
 * none answers) → the sandbox (web role, no Slack token) → adapters → Medic. `main.ts` and the CLI
 * both start here.
 */
export async function startRuntime(
  env: NodeJS.ProcessEnv,
  options: { role?: Role; logLevel?: string; logDestination?: Writable; chatOut?: Writable; verboseChat?: boolean } = {},
): Promise<Runtime> {
  const role = options.role ?? 'all';
  const config = loadConfig(readEnv(env));
  const refusal = role === 'cli' ? undefined : sandboxRefusal(config);
  if (refusal) throw new MedicError(ErrorCode.ConfigInvalid, refusal);
  const logger = createLogger({ level: options.logLevel ?? config.LOG_LEVEL, destination: options.logDestination });
  const metrics = createMetrics({ defaultMetrics: role !== 'cli' });
  const { target, url, embedded } = await resolveRedis({ target: redisTargetFrom(config), embedded: config.MEDIC_EMBEDDED_REDIS, dataDir: config.MEDIC_DATA_DIR });
  if (embedded) logger.info({ url }, 'started an embedded redis-server');
  const redis = createRedis(target);
  redis.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));

  const eventsUrl = { value: config.MEDIC_SANDBOX_EVENTS_URL ?? `http://127.0.0.1:${config.PORT}/slack/events` };
  const slack = chatMode(config) === 'console' ? undefined : slackSettings(config);
  let sandbox: SlackSandbox | undefined;
  // Read once and shared: the sandbox opens the catalog's channels, the adapters route by it.
  const paths = medicPaths(config);
  const catalog = await createServiceCatalog(config, paths);
  if (slack && chatMode(config) === 'sandbox' && (role === 'all' || role === 'web')) {
    const current = catalog.current();
    sandbox = await listenOrExplain(() => createSlackSandbox({
      otherChannels: [current.defaultChannel, ...current.services.map((s) => s.channel)].filter((c) => c !== 'incidents'),
      port: config.MEDIC_SANDBOX_PORT, signingSecret: slack.signingSecret, botToken: slack.botToken, medicEventsUrl: () => eventsUrl.value,
      history: { redis, prefix: config.MEDIC_REDIS_PREFIX },
      // The page's "Merge fix branch" merges into the local bare remotes (a network remote is never written).
      localRemotes: () => catalog.current().repositories.map((r) => ({ path: remoteOf(paths, r), branch: r.branch })),
    }), { host: '127.0.0.1', port: config.MEDIC_SANDBOX_PORT, variable: 'MEDIC_SANDBOX_PORT' });
    slack.apiUrl = sandbox.apiUrl;
  }
  const adapters = await createAdapters({ config, redis, logger, chatOut: options.chatOut ?? process.stdout, slack, verboseChat: options.verboseChat, catalog, metrics });
  const crashAfter = new Set(config.MEDIC_CRASH_AFTER);
  const medic = createMedicCells({
    config, redis, adapters, logger, metrics,
    afterStep: crashAfter.size > 0 ? (step) => { if (crashAfter.has(step)) process.kill(process.pid, 'SIGKILL'); } : undefined,
  });
  return {
    role, config, redis, redisUrl: url, embeddedRedis: Boolean(embedded), logger, metrics, adapters, medic, sandbox, eventsUrl, verboseChat: options.verboseChat ?? false,
    async close() {
      await medic.close();
      await sandbox?.close();
      redis.disconnect();
      await embedded?.stop();
    },
  };
}
