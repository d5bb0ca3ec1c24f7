import { afterEach, beforeEach } from 'vitest';
import { createIncidentGrouping } from '../../src/adapters/redis/open-from-overflow.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import { createTemplateMiner, type TemplateMiner } from '../../src/domain/templates/template-miner.js';
import type { Authority } from '../../src/ports/authority.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import { ingestEvents, type IngestDeps } from '../../src/use-cases/ingest-events.js';
import type { GroupingDeps } from '../../src/use-cases/open-incident.js';
import { buildHarness, type Harness } from '../gateway/support.js';
import { buildEvent } from './builders.js';
import { createTestRedis } from './redis.js';

type TestRedis = Awaited<ReturnType<typeof createTestRedis>>;

/** A real Redis under a prefix of its own and an incident store on it, fresh for each test of the calling suite. */
export function useIncidentStore() {
  let ctx: TestRedis | undefined;
  let store: IncidentStore | undefined;
  beforeEach(async () => {
    ctx = await createTestRedis();
    store = createIncidentStore(ctx.redis, ctx.prefix);
  });
  afterEach(async () => ctx?.cleanup());
  return { redis: () => ctx!, store: () => store! };
}

/**
 * The incident store, a gateway harness with the grouping tools, and an online miner: what the
 * grouping decisions (merge, split, open from overflow) run on. `authority` replaces the
 * harness's configured approvers; it may read the store.
 */
export function useGroupingWorld(options: { authority?: (store: IncidentStore) => Authority } = {}) {
  const base = useIncidentStore();
  const now = Date.parse('2026-11-30T09:10:00.000Z');
  let harness: Harness | undefined;
  let miner: TemplateMiner | undefined;
  beforeEach(() => {
    const { redis, prefix } = base.redis();
    const authority = options.authority?.(base.store());
    harness = buildHarness(redis, prefix, { ...(authority ? { authority } : {}), deps: { grouping: createIncidentGrouping(redis, prefix, () => new Date(now)) } });
    miner = createTemplateMiner();
  });
  let seq = 0;
  const event = (service: string, message: string, fields: Record<string, string> = {}) =>
    buildEvent({ id: `e${++seq}`, service, time: new Date(now).toISOString(), message, raw: message, fields });
  return {
    ...base,
    now,
    harness: () => harness!,
    event,
    ingest: (events: ReturnType<typeof event>[], storm?: IngestDeps['storm']) =>
      ingestEvents(events, { store: base.store(), miner: miner!, clock: () => new Date(now), enqueueAnalysis: async () => undefined, ...(storm ? { storm } : {}) }),
    deps: (): GroupingDeps => ({ gateway: harness!.gateway, approvals: harness!.approvals, store: base.store(), enqueueAnalysis: async () => undefined }),
  };
}
