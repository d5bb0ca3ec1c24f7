import { ErrorCode, type ErrorCode as Code } from '../../domain/errors.js';
import type { EffectClass } from '../registry/effect.js';

/**
 * The effect gate as a pure function, so the whole decision table is testable without Redis.
 * `approval` is what the server found, never what the caller claimed: `forged` means a claimed
 * reference matched nothing recorded; `step-up` means a single-use challenge was just redeemed.
 */
export interface GateInput {
  effect: EffectClass;
  /** Every principal involved (caller, recorded approver, step-up confirmer) holds what the tool needs. */
  permitted: boolean;
  approval: 'none' | 'recorded' | 'forged' | 'step-up';
  /** READ_ONLY: this tool's upstream is open. MUTATING/DESTRUCTIVE: any upstream is open (degraded mode). */
  breaker: 'closed' | 'open';
  /** A recent result for these exact arguments is cached (reads only). */
  cached: boolean;
  /** An argument was lowered to its bound; a human must look before it runs. */
  capped: boolean;
}

export type GateDecision =
  | { action: 'run'; reason: string }
  | { action: 'serve-cache'; reason: string }
  | { action: 'propose'; requires: 'approval' | 'step-up'; reason: string }
  | { action: 'deny'; code: Code; reason: string };

export const DEGRADED_REASON = 'provider rate-limited — degraded to read-only diagnostics';

export function decide(input: GateInput): GateDecision {
  if (!input.permitted) return { action: 'deny', code: ErrorCode.ToolDenied, reason: 'missing the permission this tool requires' };
  if (input.approval === 'forged') {
    return { action: 'deny', code: ErrorCode.ToolDenied, reason: 'claimed approval matches nothing recorded for this exact intent' };
  }
  switch (input.effect) {
    case 'READ_ONLY':
      if (input.breaker === 'open') {
        return input.cached
          ? { action: 'serve-cache', reason: `${DEGRADED_REASON}; answered from a recent cache` }
          : { action: 'deny', code: ErrorCode.UpstreamUnavailable, reason: `${DEGRADED_REASON}; nothing recent cached` };
      }
      if (input.capped && input.approval === 'none') return { action: 'propose', requires: 'approval', reason: 'an argument was capped to its bound; a human must approve' };
      return { action: 'run', reason: 'read-only' };
    case 'MUTATING':
      if (input.breaker === 'open') return { action: 'deny', code: ErrorCode.UpstreamUnavailable, reason: `${DEGRADED_REASON}; mutations halted` };
      if (input.approval === 'none') return { action: 'propose', requires: 'approval', reason: 'proposal only: needs a recorded human approval of this exact intent' };
      return { action: 'run', reason: 'approved by a human for this exact intent' };
    case 'DESTRUCTIVE':
      if (input.breaker === 'open') return { action: 'deny', code: ErrorCode.UpstreamUnavailable, reason: `${DEGRADED_REASON}; destructive actions halted` };
      if (input.approval !== 'step-up') return { action: 'propose', requires: 'step-up', reason: 'proposal only: needs step-up confirmation by a second, elevated approver' };
      return { action: 'run', reason: 'confirmed by step-up' };
  }
}
