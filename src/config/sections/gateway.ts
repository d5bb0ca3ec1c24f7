import { z } from 'zod';
import { intFrom, listFrom, urlString } from '../env-helpers.js';

const secret = (name: string) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.string().min(32, `${name} must be at least 32 characters (e.g. openssl rand -hex 32)`).optional());

/**
 * The tool gateway's variables, merged into EnvSchema in src/config/schema.ts. Approvers themselves
 * stay in MEDIC_APPROVERS; entries of the form `group:<slack usergroup id>` name user groups.
 */
export const GatewayEnv = {
  /** Elevated approvers (user ids or group:<id>): the only ones who may confirm a DESTRUCTIVE step-up. */
  MEDIC_ELEVATED_APPROVERS: listFrom([]),
  /**
   * Who may read any incident from anywhere (user ids or group:<id>) with `/medic status|list`;
   * approvers may too. Anyone else reads only in the incident's own channel.
   */
  MEDIC_READERS: listFrom([]),
  /** HMAC key for step-up challenges; unset means a random key per process (fine with one Slack app). */
  MEDIC_STEP_UP_SECRET: secret('MEDIC_STEP_UP_SECRET'),
  MEDIC_STEP_UP_TTL_MS: intFrom(120_000, 10_000, 900_000),
  /** How long a recorded approval of a MUTATING intent stays valid. */
  MEDIC_APPROVAL_TTL_MS: intFrom(86_400_000, 60_000),
  MEDIC_POLICY_FILE: z.string().default('data/policy/actions.yaml'),
  /** Base for the relative webhook paths of the policy file; unset disables operational actions. */
  MEDIC_AUTOMATION_URL: urlString,
  MEDIC_AUTOMATION_SECRET: secret('MEDIC_AUTOMATION_SECRET'),
  MEDIC_GATEWAY_READ_TIMEOUT_MS: intFrom(5_000, 100, 60_000),
  MEDIC_GATEWAY_WRITE_TIMEOUT_MS: intFrom(120_000, 1_000, 600_000),
  /** Lease of the per-target "action in flight" lock, renewed while its holder lives (a dead one frees it this fast). */
  MEDIC_GATEWAY_LOCK_MS: intFrom(5_000, 500, 600_000),
  MEDIC_GATEWAY_READ_CACHE_MS: intFrom(120_000, 0),
  MEDIC_BREAKER_FAILURES: intFrom(3, 1, 100),
  MEDIC_BREAKER_COOLDOWN_MS: intFrom(30_000, 1_000),
  /** Slack user-group ids are resolved through the chat adapter; this caps how often. */
  MEDIC_GROUP_CACHE_MS: intFrom(60_000, 0),
} as const;

export const GatewayEnvSchema = z.object(GatewayEnv);
export type GatewayConfig = z.infer<typeof GatewayEnvSchema>;
