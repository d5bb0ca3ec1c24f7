/**
 * The vocabulary of the gateway: what a tool does to the world, what a caller must hold to ask for
 * it, and who is asking. Kept apart from the registry so presenters and the Slack layer can import
 * it without pulling in handlers.
 */
export const EffectClass = {
  ReadOnly: 'READ_ONLY',
  Mutating: 'MUTATING',
  Destructive: 'DESTRUCTIVE',
} as const;
export type EffectClass = (typeof EffectClass)[keyof typeof EffectClass];
export const EFFECT_CLASSES: readonly EffectClass[] = ['READ_ONLY', 'MUTATING', 'DESTRUCTIVE'];

/**
 * What a tool requires. `read` is held by the pipeline and by approvers; `approve` by approvers;
 * `elevated` by elevated approvers (the only ones who may confirm a step-up).
 */
export const PERMISSIONS = ['read', 'approve', 'elevated'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The least a tool of each class may require: a policy file cannot make a rollback need only `read`. */
export const MINIMUM_PERMISSION: Record<EffectClass, Permission> = {
  READ_ONLY: 'read',
  MUTATING: 'approve',
  DESTRUCTIVE: 'elevated',
};

const RANK: Record<Permission, number> = { read: 0, approve: 1, elevated: 2 };
export function permissionAtLeast(held: Permission, floor: Permission): boolean {
  return RANK[held] >= RANK[floor];
}

/**
 * A verified caller. `userId` comes from a verified Slack request or the configured CLI operator,
 * never from a payload, a button value or model output; the pipeline is Medic's own identity.
 */
export type GatewayCaller = { kind: 'pipeline' } | { kind: 'user'; userId: string };

/** Everything an invocation carries besides the intent itself. */
export interface InvocationContext {
  caller: GatewayCaller;
  incidentId?: string;
  traceId?: string;
  /** The approval reference a MUTATING call claims; checked against the approval store, never trusted. */
  approvalId?: string;
  /** Where a streaming read hands over what it reads, a part at a time (the stream waits for it). */
  sink?: (items: readonly unknown[]) => Promise<void>;
}

/** What the model (or a job) proposes. `plane` defaults to server; client-plane intents are refused. */
export interface ToolIntent {
  tool: string;
  args: unknown;
  plane?: 'server' | 'client';
}

/** The pipeline's own identity string in audit records and approvals. */
export const PIPELINE_ID = 'medic';

export function callerId(caller: GatewayCaller): string {
  return caller.kind === 'pipeline' ? PIPELINE_ID : caller.userId;
}
