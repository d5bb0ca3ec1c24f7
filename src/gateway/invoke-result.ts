import type { ErrorCode as Code, MedicError } from '../domain/errors.js';
import type { Approval } from './effect-gate/approval-store.js';
import type { InvocationContext } from './registry/effect.js';
import type { CappedArg } from './registry/registry.js';
import type { AnyToolSpec } from './registry/tool-spec.js';

/**
 * What every gateway call answers, and how a call that passed the gate is handed to execution.
 * Apart from gateway.ts so the step-up flow, which runs executions, needs nothing from the door.
 */
export type InvokeResult =
  | { status: 'executed'; value: unknown; fromCache: boolean; argsHash: string; capped: CappedArg[] }
  | { status: 'proposed'; requires: 'approval' | 'step-up'; reason: string; argsHash: string; capped: CappedArg[] }
  | { status: 'denied'; code: Code; reason: string; argsHash: string }
  /** `outcomeUnknown`: the deadline passed while the handler still ran; it is reconciled when it settles. */
  | { status: 'failed'; code: Code; reason: string; argsHash: string; error: MedicError; outcomeUnknown?: boolean };

/** Internal: how a call that passed the gate is run. */
export interface Execution {
  spec: AnyToolSpec;
  args: unknown;
  argsHash: string;
  capped: CappedArg[];
  ctx: InvocationContext;
  approval?: Approval;
  approverId?: string;
  extra?: Record<string, unknown>;
}
