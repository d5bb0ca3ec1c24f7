import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { HecClient } from '../src/adapters/splunk/hec-client.js';
import { withRedisLock } from '../src/adapters/redis/redis-lock.js';
import type { JobDefinition } from '../src/queue/job-definition.js';

export interface ForwardAuditDeps {
  redis: Redis;
  prefix: string;
  hec: HecClient;
  batch: number;
}

const Payload = z.object({}).passthrough();

/**
 * Copies the audit stream to Splunk's HTTP Event Collector. The stream in Redis stays the record;
 * a cursor (the last stream id sent) advances only after HEC accepted the batch, so a failed send
 * is retried on the next tick and nothing is skipped. Delivery is at least once.
 */
export function createForwardAuditJob(deps: ForwardAuditDeps): JobDefinition<z.infer<typeof Payload>> {
  return {
    queue: 'forward-audit',
    schema: Payload,
    attempts: 1,
    backoffMs: 1_000,
    concurrency: 1,
    perform: async () => {
      await forwardAudit(deps);
    },
  };
}

export async function forwardAudit(deps: ForwardAuditDeps): Promise<number> {
  const cursorKey = `${deps.prefix}hec:cursor`;
  return withRedisLock(deps.redis, `${deps.prefix}lock:hec`, async () => {
    let sent = 0;
    for (;;) {
      const cursor = (await deps.redis.get(cursorKey)) ?? '0-0';
      const rows = await deps.redis.xrange(`${deps.prefix}audit`, `(${cursor}`, '+', 'COUNT', deps.batch);
      if (rows.length === 0) return sent;
      await deps.hec.send(rows.map(([id, fields]) => ({ time: Number(id.split('-')[0]) / 1000, event: JSON.parse(fields[1] ?? '{}') as unknown })));
      await deps.redis.set(cursorKey, rows.at(-1)?.[0] ?? cursor);
      sent += rows.length;
    }
  }, { ttlMs: 60_000 });
}
