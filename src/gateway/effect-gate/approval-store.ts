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

export interface TargetLocks {
  /**
   * At most one MUTATING/DESTRUCTIVE call in flight per target, across every worker. The lock is
   * a lease its holder renews while alive: a killed worker's lock frees within one lease.
   */
  acquire(target: string): Promise<Lease | undefined>;
}

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
    acquire: (target) => tryAcquireLease(redis, `${prefix}gw:lock:${target}`, { leaseMs: options.leaseMs }),
  };
}
