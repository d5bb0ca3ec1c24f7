import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../adapters/redis/connect.js';
import type { GatewayConfig } from '../config/sections/gateway.js';
import type { AuditLog } from '../ports/audit.js';
import type { Authority } from '../ports/authority.js';
import { createApprovalStore, createTargetLocks, type ApprovalStore } from './effect-gate/approval-store.js';
import { createConfiguredAuthority, type UserGroupResolver } from './authority/authority.js';
import { createWebhookAutomation } from './actions/automation-client.js';
import { createBreakers, createReadCache } from './degradation/circuit-breaker.js';
import { createToolGateway, type ToolGatewayOptions, type ToolGateway } from './gateway.js';
import type { ActionPolicy } from './actions/policy.js';
import { createToolRegistry, type ToolRegistryDeps } from './registry/registry.js';
import { createStepUpChallenges } from './effect-gate/step-up.js';
import { LLM_UPSTREAM } from './registry/llm-tools.js';

export interface GatewayStackOptions {
  redis: RedisClient;
  /** MEDIC_REDIS_PREFIX; the gateway's keys live under `<prefix>gw:`. */
  prefix: string;
  audit: AuditLog;
  /** The real (ungated) ports the handlers call. */
  ports: Omit<ToolRegistryDeps, 'actions' | 'automation'>;
  /** From `loadPolicy(config.MEDIC_POLICY_FILE)`, awaited at start so a bad file stops the boot. */
  actions: readonly ActionPolicy[];
  config: GatewayConfig & { MEDIC_APPROVERS: string[] };
  userGroups?: UserGroupResolver;
  /** The authority the rest of Medic uses too; built from config when absent. */
  authority?: Authority;
  /** See ToolGatewayOptions.cacheScope. */
  cacheScope?: ToolGatewayOptions['cacheScope'];
  now?: () => number;
}

export interface GatewayStack {
  gateway: ToolGateway;
  /** For the approve use-case (`recordFixApproval`) and the Run button (`runApprovedAction`). */
  approvals: ApprovalStore;
}

/** Everything the gateway needs, from config: built once by the composition root (src/app/create-adapters.ts). */
export function createGatewayStack(options: GatewayStackOptions): GatewayStack {
  const { redis, prefix, config } = options;
  const now = options.now ?? Date.now;
  const automation =
    config.MEDIC_AUTOMATION_SECRET && options.actions.length > 0
      ? createWebhookAutomation({ baseUrl: config.MEDIC_AUTOMATION_URL, secret: config.MEDIC_AUTOMATION_SECRET, now })
      : undefined;
  const approvals = createApprovalStore(redis, prefix, { ttlMs: config.MEDIC_APPROVAL_TTL_MS, now });
  const gateway = createToolGateway({
    registry: createToolRegistry({ ...options.ports, actions: options.actions, automation }),
    authority: options.authority ?? createConfiguredAuthority({
      approvers: config.MEDIC_APPROVERS,
      elevatedApprovers: config.MEDIC_ELEVATED_APPROVERS,
      userGroups: options.userGroups,
      groupCacheMs: config.MEDIC_GROUP_CACHE_MS,
      now,
    }),
    audit: options.audit,
    approvals,
    locks: createTargetLocks(redis, prefix, { leaseMs: config.MEDIC_GATEWAY_LOCK_MS }),
    // A per-process key is enough while one Slack app both issues and redeems; set the variable when there are more.
    challenges: createStepUpChallenges(redis, prefix, { secret: config.MEDIC_STEP_UP_SECRET ?? randomBytes(32).toString('hex'), ttlMs: config.MEDIC_STEP_UP_TTL_MS, now }),
    breakers: createBreakers({ failureThreshold: config.MEDIC_BREAKER_FAILURES, cooldownMs: config.MEDIC_BREAKER_COOLDOWN_MS, advisory: [LLM_UPSTREAM], now }),
    cache: createReadCache({ ttlMs: config.MEDIC_GATEWAY_READ_CACHE_MS, now }),
    ...(options.cacheScope ? { cacheScope: options.cacheScope } : {}),
    readTimeoutMs: config.MEDIC_GATEWAY_READ_TIMEOUT_MS,
    writeTimeoutMs: config.MEDIC_GATEWAY_WRITE_TIMEOUT_MS,
    now,
  });
  return { gateway, approvals };
}
