import type { AuditEvent } from '../../domain/audit.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { AuditLog } from '../../ports/audit.js';
import { PIPELINE_ID, type EffectClass, type InvocationContext } from '../registry/effect.js';

/** How a call ended, as the gateway reports it and the audit records it. */
export type GatewayDecision = 'executed' | 'cached' | 'proposed' | 'challenge-issued' | 'denied' | 'failed' | 'unknown' | 'late-executed' | 'late-failed';

const OUTCOME: Record<GatewayDecision, AuditEvent['outcome']> = {
  executed: 'allowed',
  cached: 'allowed',
  // A request for a challenge was granted; the action itself has not run.
  'challenge-issued': 'allowed',
  // Nothing ran: a proposal waits for a human, so it must not read as "allowed".
  proposed: 'denied',
  denied: 'denied',
  failed: 'failed',
  // The deadline passed with the handler still running: a push or a webhook may yet land.
  unknown: 'unknown',
  // The reconciliation of an unknown outcome, appended when the handler finally settled.
  'late-executed': 'allowed',
  'late-failed': 'failed',
};

const ACTION: Partial<Record<GatewayDecision, string>> = {
  'challenge-issued': 'gateway.step-up-request',
  'late-executed': 'gateway.tool-reconciled',
  'late-failed': 'gateway.tool-reconciled',
};

export interface GatewayAuditInput {
  tool: string;
  effect: EffectClass | 'UNKNOWN';
  decision: GatewayDecision;
  reason: string;
  argsHash: string;
  ctx: InvocationContext;
  code?: string;
  extra?: Record<string, unknown>;
}

/** One record per gateway call. The tool name may be model output: it is data, capped. */
export function buildGatewayAudit(input: GatewayAuditInput, at: string): AuditEvent {
  const { ctx } = input;
  const details: Record<string, unknown> = { tool: input.tool.slice(0, 128), effect: input.effect, decision: input.decision, argsHash: input.argsHash, ...input.extra };
  if (input.code) details.code = input.code;
  return {
    at,
    action: ACTION[input.decision] ?? 'gateway.tool-call',
    outcome: OUTCOME[input.decision],
    actor: ctx.caller.kind === 'pipeline' ? { kind: 'pipeline', id: PIPELINE_ID } : { kind: 'user', id: ctx.caller.userId },
    incidentId: ctx.incidentId,
    reason: input.reason.slice(0, 500),
    traceId: ctx.traceId,
    details,
  };
}

/** Appends before the result is reported; if the trail cannot be written, the result is withheld. */
export async function appendOrWithhold(audit: AuditLog, event: AuditEvent): Promise<void> {
  try {
    await audit.append([event]);
  } catch (error) {
    throw new MedicError(ErrorCode.Internal, 'The audit trail could not be written, so the tool result is withheld; check Redis.', { cause: error, transient: true });
  }
}
