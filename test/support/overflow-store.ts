import { PassThrough } from 'node:stream';
import { createConsoleChat } from '../../src/adapters/console-chat/console-chat.js';
import { createRedisCardDeliveryState } from '../../src/adapters/redis/card-delivery-state.js';
import { deliverCard, type DeliverCardDeps } from '../../jobs/deliver-card.js';
import type { RefreshCardDeps } from '../../jobs/refresh-card.js';
import { createLogger } from '../../src/observability/logger.js';
import { createMetrics } from '../../src/observability/metrics.js';
import type { Chat } from '../../src/ports/chat.js';
import type { Severity } from '../../src/domain/event.js';
import type { IngestDeps } from '../../src/use-cases/ingest-events.js';
import { buildEvent } from './builders.js';
import { useIncidentStore } from './incident-store-world.js';

/**
 * A Redis incident store whose hourly cap opens one incident, so every later family overflows;
 * events are all stamped at `now`. Registers its own set-up and clean-up in the calling suite.
 */
export function useOverflowStore() {
  const base = useIncidentStore();
  const now = Date.parse('2026-11-30T09:10:00.000Z');
  const redis = base.redis;
  let seq = 0;
  return {
    now,
    redis,
    store: base.store,
    deps: (): IngestDeps => ({
      store: base.store(), clock: () => new Date(now), enqueueAnalysis: async () => undefined,
      storm: { open: { minEvents: 1, windowS: 300 }, rules: {}, maxNewPerHour: 1, maxNewPerServiceHour: 20 },
    }),
    event: (service: string, message: string, severity: Severity = 'error') => buildEvent({ id: `e${++seq}`, service, severity, time: new Date(now).toISOString(), message, raw: message }),
    chat: () => createConsoleChat({ redis: redis().redis, prefix: redis().prefix, out: new PassThrough(), channel: 'incidents' }),
    /** The refresh job's deps, its card requests delivered at once by the real delivery into `chat`. */
    refreshDeps: (chat: Chat): RefreshCardDeps => {
      const delivery: DeliverCardDeps = {
        store: base.store(), chat, state: createRedisCardDeliveryState(redis().redis, redis().prefix), clock: () => new Date(now),
        logger: createLogger({ level: 'silent' }), metrics: createMetrics(), retry: { minMs: 100, maxMs: 1_000 }, attempts: 3,
      };
      return { store: base.store(), clock: () => new Date(now), requestCard: (id) => deliverCard(id, 'final', delivery) };
    },
    /** The console chat's posts and updates, oldest first. */
    transcript: async () => (await redis().redis.lrange(`${redis().prefix}console:transcript`, 0, -1)).map((r) => JSON.parse(r) as { blocks: Record<string, unknown>[] }),
  };
}
