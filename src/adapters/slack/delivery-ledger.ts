import { createHash } from 'node:crypto';

/** Where handled deliveries are claimed: this process's memory, or Redis shared by every process. */
export interface DeliveryClaims {
  /** True the first time a key is offered (within the TTL); false for every repeat. */
  claim(key: string): boolean | Promise<boolean>;
}

/**
 * Remembers which Slack deliveries this process has handled, so a Slack retry (X-Slack-Retry-Num)
 * or a replayed request within the signature window is acknowledged and dropped. The use-cases are
 * idempotent as well; this keeps a duplicate from even reaching them (and from posting a second
 * ephemeral). In-memory, for one process (tests, the sandbox); a deployment passes the Redis claims
 * (`createRedisDeliveryClaims`) so a replay to another process or after a restart is dropped too.
 */
export class DeliveryLedger implements DeliveryClaims {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly ttlMs = 10 * 60_000,
    private readonly maxEntries = 20_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** True the first time a key is offered (within the TTL); false for every repeat. */
  claim(key: string): boolean {
    const at = this.now();
    const previous = this.seen.get(key);
    if (previous !== undefined && at - previous < this.ttlMs) return false;
    this.seen.delete(key);
    this.seen.set(key, at);
    this.evict(at);
    return true;
  }

  private evict(at: number): void {
    for (const [key, when] of this.seen) {
      if (this.seen.size <= this.maxEntries && at - when < this.ttlMs) break;
      this.seen.delete(key);
    }
  }
}

type Body = Record<string, unknown>;
const obj = (v: unknown): Body => (v && typeof v === 'object' ? (v as Body) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The identity of one delivery, stable across Slack's retries and replays of the same request:
 * an action's action_ts, a command's trigger_id, a submission's view id plus its submitted values,
 * an event's event_id. Undefined for anything else (it is never dropped).
 */
export function deliveryKey(body: Body): string | undefined {
  const type = str(body.type);
  if (type === 'block_actions') {
    const action = obj((body.actions as unknown[] | undefined)?.[0]);
    return `action:${str(obj(body.user).id)}:${str(action.action_id)}:${str(action.action_ts)}`;
  }
  if (type === 'view_submission') {
    const view = obj(body.view);
    const values = createHash('sha256').update(JSON.stringify(obj(view.state).values ?? {})).digest('hex').slice(0, 16);
    return `view:${str(view.id)}:${values}`;
  }
  if (typeof body.command === 'string' && str(body.trigger_id)) return `command:${str(body.trigger_id)}`;
  if (type === 'event_callback' && str(body.event_id)) return `event:${str(body.event_id)}`;
  return undefined;
}

/**
 * The keys one delivery is claimed under: its identity (stable across Slack's retries) and, over
 * HTTP, the request signature (an identical replay of any signed request, whatever its type).
 */
export function replayKeys(body: Body, signature: string | undefined): string[] {
  return [deliveryKey(body), signature ? `signature:${signature}` : undefined].filter((key): key is string => key !== undefined);
}

/** Claims every key; false when any was claimed before: the delivery is acked and dropped. */
export async function claimAll(ledger: DeliveryClaims, keys: string[]): Promise<boolean> {
  const claims = await Promise.all(keys.map(async (key) => ledger.claim(key)));
  return !claims.includes(false);
}
