import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../../adapters/redis/connect.js';
import { tryAcquireLease, type Lease } from '../../adapters/redis/leased-lock.js';

export interface Approval {
  approvalId: string;
  tool: string;
  argsHash: string;
  incidentId: string;
  approverId: string;
  at: string;
}

export interface ApprovalStore {
  /**
   * Written by the approve use-case after it has verified the approver. `argsHash` is the
   * registry's `approvalHash` for the intent (for a fix: `fixApprovalHash`).
   */
  recordApproval(input: { tool: string; argsHash: string; incidentId: string; approverId: string }): Promise<Approval>;
  findApproval(tool: string, argsHash: string, incidentId: string): Promise<Approval | undefined>;
  /** Spent after a successful non-idempotent run, so one click runs an action once. */
  consumeApproval(approval: Approval): Promise<void>;
}

/**
 * A write lease with the check a resource makes before it takes the write: `admit` answers false
 * when a later holder of the same target has already written (its fence is larger), so a holder
 * that stalled past its lease — paused, partitioned — is refused instead of overwriting it.
 */
export interface WriteLease extends Lease {
  /** Just before the irreversible effect: records this fence as the latest seen, unless a larger one was. */
  admit(): Promise<boolean>;
}

export interface TargetLocks {
  /**
   * At most one MUTATING/DESTRUCTIVE call in flight per target, across every worker. The lock is
   * a lease its holder renews while alive: a killed worker's lock frees within one lease.
   */
  acquire(target: string): Promise<WriteLease | undefined>;
}

// The largest fence a target's resource has admitted; a smaller one comes from a stale holder.
const ADMIT = `
local seen = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) < seen then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;
/** The admitted fence outlives any lease by far; a month bounds what idle targets keep. */
const SEEN_TTL_MS = 30 * 86_400_000;

export function createApprovalStore(redis: RedisClient, prefix: string, options: { ttlMs: number; now?: () => number }): ApprovalStore {
  const now = options.now ?? Date.now;
  const key = (incidentId: string, tool: string, argsHash: string) => `${prefix}gw:approval:${incidentId}:${tool}:${argsHash}`;
  return {
    async recordApproval(input) {
      const approval: Approval = { ...input, approvalId: randomUUID(), at: new Date(now()).toISOString() };
      await redis.set(key(input.incidentId, input.tool, input.argsHash), JSON.stringify(approval), 'PX', options.ttlMs);
      return approval;
    },
    async findApproval(tool, argsHash, incidentId) {
      const raw = await redis.get(key(incidentId, tool, argsHash));
      return raw ? (JSON.parse(raw) as Approval) : undefined;
    },
    async consumeApproval(approval) {
      await redis.del(key(approval.incidentId, approval.tool, approval.argsHash));
    },
  };
}

export function createTargetLocks(redis: RedisClient, prefix: string, options: { leaseMs: number }): TargetLocks {
  return {
    async acquire(target) {
      const key = `${prefix}gw:lock:${target}`;
      const lease = await tryAcquireLease(redis, key, { leaseMs: options.leaseMs });
      if (!lease) return undefined;
      const admit = async () => Number(await redis.eval(ADMIT, 1, `${key}:admitted`, lease.fence, SEEN_TTL_MS)) === 1;
      return Object.assign(lease, { admit });
    },
  };
}
