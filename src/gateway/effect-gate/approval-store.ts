import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../../adapters/redis/connect.js';

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
  /** At most one MUTATING/DESTRUCTIVE call in flight per target, across every worker. */
  acquire(target: string): Promise<string | undefined>;
  release(target: string, token: string): Promise<void>;
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

// Compare-and-delete: a lock that expired and was taken by another worker is not ours to free.
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export function createTargetLocks(redis: RedisClient, prefix: string, options: { ttlMs: number }): TargetLocks {
  const key = (target: string) => `${prefix}gw:lock:${target}`;
  return {
    async acquire(target) {
      const token = randomUUID();
      const ok = await redis.set(key(target), token, 'PX', options.ttlMs, 'NX');
      return ok === 'OK' ? token : undefined;
    },
    async release(target, token) {
      await redis.eval(RELEASE, 1, key(target), token);
    },
  };
}
