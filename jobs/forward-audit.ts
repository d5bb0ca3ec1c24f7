import type { RedisClient } from '../src/adapters/redis/connect.js';
import { z } from 'zod';
import type { HecClient } from '../src/adapters/splunk/hec-client.js';
import { drainAuditStream } from '../src/adapters/redis/audit-cursor.js';
import { withRedisLock } from '../src/adapters/redis/redis-lock.js';
import { asMedicError } from '../src/domain/errors.js';
import type { AuditLog } from '../src/ports/audit.js';
import type { JobDefinition } from '../src/queue/job-definition.js';

export interface ForwardAuditDeps {
  redis: RedisClient;
  prefix: string;
  hec: HecClient;
  batch: number;
  /** Where each forwarding is itself recorded (see README, side effects outside the gateway). */
  audit?: AuditLog;
  now?: () => Date;
}

export const FORWARD_ACTION = 'audit.forward';

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

/**
 * The forwarder does not pass the tool gateway: it copies Medic's own records to the operator's
 * Splunk, changes nothing there but an index, and must keep working while the gateway is degraded.
 * It audits itself instead: one record per run that forwarded anything but its own records (so
 * the record of a run never triggers another), and one when HEC starts refusing.
 */
export async function forwardAudit(deps: ForwardAuditDeps): Promise<number> {
  const cursorKey = `${deps.prefix}hec:cursor`;
  const failingKey = `${deps.prefix}hec:failing`;
  const record = async (outcome: 'done' | 'failed', reason: string, details: Record<string, unknown>) =>
    deps.audit?.append([{ at: (deps.now?.() ?? new Date()).toISOString(), action: FORWARD_ACTION, outcome, actor: { kind: 'pipeline', id: 'medic' }, reason, details }]);
  return withRedisLock(deps.redis, `${deps.prefix}lock:hec`, async () => {
    let sent = 0;
    let others = 0;
    let last: string | undefined;
    try {
      await drainAuditStream(deps.redis, deps.prefix, cursorKey, deps.batch, async (rows) => {
        const events = rows.map(({ id, json }) => ({ time: Number(id.split('-')[0]) / 1000, event: JSON.parse(json) as { action?: unknown } }));
        await deps.hec.send(events);
        sent += rows.length;
        others += events.filter((e) => e.event.action !== FORWARD_ACTION).length;
        last = rows.at(-1)?.id;
      });
    } catch (error) {
      // Once per outage, not once per tick: the flag clears on the next successful run.
      if ((await deps.redis.set(failingKey, '1', 'NX')) === 'OK') await record('failed', `HEC refused the audit stream: ${asMedicError(error).message}`.slice(0, 500), { sent });
      throw error;
    }
    await deps.redis.del(failingKey);
    if (others > 0) await record('done', `forwarded ${sent} audit record(s) to Splunk HEC`, { sent, through: last });
    return sent;
  }, { waitMs: 60_000 });
}
