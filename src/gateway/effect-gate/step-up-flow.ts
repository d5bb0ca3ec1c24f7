import { ErrorCode, type ErrorCode as Code } from '../../domain/errors.js';
import type { Breakers } from '../degradation/circuit-breaker.js';
import { decide } from './decide.js';
import type { GatewayCaller, InvocationContext, Permission, ToolIntent } from '../registry/effect.js';
import type { Execution, InvokeResult } from '../invoke-result.js';
import type { GatewayAuditInput } from '../audit/gateway-audit.js';
import type { ToolRegistry } from '../registry/registry.js';
import type { Challenge, IssuedChallenge, StepUpChallenges } from './step-up.js';
import type { AnyToolSpec } from '../registry/tool-spec.js';

export type StepUpRequestResult = { status: 'challenge'; challenge: IssuedChallenge; argsHash: string } | Extract<InvokeResult, { status: 'denied' }>;

interface FlowDeps {
  registry: ToolRegistry;
  challenges?: StepUpChallenges;
  breakers: Breakers;
  permissionsOf(caller: GatewayCaller, incidentId?: string): Promise<Set<Permission>>;
  permissionsOfUser(userId: string, incidentId?: string): Promise<Set<Permission>>;
  record(input: GatewayAuditInput): Promise<void>;
  deny(tool: string, spec: AnyToolSpec | undefined, ctx: InvocationContext, code: Code, reason: string, argsHash: string, extra?: Record<string, unknown>): Promise<InvokeResult>;
  execute(run: Execution): Promise<InvokeResult>;
}

const STEP_UP = '(step-up)';

/**
 * DESTRUCTIVE actions: a person with `approve` requests, a second, distinct person holding
 * `elevated` confirms by typing the target's name. Both are re-resolved at confirmation time; no
 * path here runs for the pipeline, whatever the model's confidence or the incident's severity.
 */
export function createStepUpFlow(deps: FlowDeps) {
  const { registry, challenges, breakers } = deps;
  const denied = async (...args: Parameters<FlowDeps['deny']>) => (await deps.deny(...args)) as Extract<InvokeResult, { status: 'denied' }>;

  async function requestStepUp(intent: ToolIntent, ctx: InvocationContext): Promise<StepUpRequestResult> {
    const tool = String(intent.tool);
    const normalized = registry.normalize(tool, intent.args);
    if (!normalized.ok) return denied(tool, normalized.spec, ctx, normalized.code, normalized.reason, normalized.argsHash);
    const { spec, args, argsHash, capped } = normalized;
    const refuse = (code: Code, reason: string) => denied(tool, spec, ctx, code, reason, argsHash);
    if (spec.effect !== 'DESTRUCTIVE') return refuse(ErrorCode.ToolDenied, 'step-up is only for DESTRUCTIVE actions');
    if (!spec.available) return refuse(ErrorCode.ToolDenied, `${spec.name} is not configured here`);
    if (!challenges) return refuse(ErrorCode.ToolDenied, 'step-up is not configured (MEDIC_STEP_UP_SECRET)');
    if (ctx.caller.kind !== 'user') return refuse(ErrorCode.ToolDenied, 'a destructive action is requested by a person, never by the pipeline');
    if (!ctx.incidentId) return refuse(ErrorCode.ValidationFailed, 'a destructive action must belong to an incident');
    if (!(await deps.permissionsOf(ctx.caller, ctx.incidentId)).has('approve')) return refuse(ErrorCode.ToolDenied, 'missing the approve permission needed to request a step-up');
    if (breakers.degraded()) return refuse(ErrorCode.UpstreamUnavailable, 'degraded to read-only diagnostics; destructive actions halted');
    const challenge = await challenges.issueChallenge({
      tool: spec.name,
      target: spec.target?.(args) ?? spec.name,
      argsHash,
      incidentId: ctx.incidentId,
      requestedBy: ctx.caller.userId,
      args,
    });
    await deps.record({ tool, effect: spec.effect, decision: 'challenge-issued', reason: 'awaiting a second, elevated approver', argsHash, ctx, extra: { challengeId: challenge.challengeId, ...(capped.length ? { capped } : {}) } });
    return { status: 'challenge', challenge, argsHash };
  }

  async function confirmStepUp(input: { token: string; typedTarget: string; incidentId: string }, ctx: InvocationContext): Promise<InvokeResult> {
    const bound = { ...ctx, incidentId: input.incidentId };
    if (ctx.caller.kind !== 'user') return deps.deny(STEP_UP, undefined, bound, ErrorCode.ToolDenied, 'a step-up is confirmed by a person', 'n/a');
    if (!challenges) return deps.deny(STEP_UP, undefined, bound, ErrorCode.ToolDenied, 'step-up is not configured (MEDIC_STEP_UP_SECRET)', 'n/a');
    // Both checked before redemption, so neither a wrong person nor a rate-limited provider burns the challenge.
    if (!(await deps.permissionsOf(ctx.caller, input.incidentId)).has('elevated')) return deps.deny(STEP_UP, undefined, bound, ErrorCode.ToolDenied, 'step-up refused: the confirmer does not hold the elevated permission', 'n/a');
    if (breakers.degraded()) return deps.deny(STEP_UP, undefined, bound, ErrorCode.UpstreamUnavailable, 'degraded to read-only diagnostics; destructive actions halted', 'n/a');
    const confirmerId = ctx.caller.userId;
    let seen: { challenge: Challenge; spec?: AnyToolSpec; args?: unknown } | undefined;
    const redemption = await challenges.redeemChallenge({ token: input.token, typedTarget: input.typedTarget, incidentId: input.incidentId, confirmerId }, async (challenge) => {
      const spec = registry.get(challenge.tool);
      seen = { challenge, spec };
      if (spec?.effect !== 'DESTRUCTIVE' || !spec.available) return 'the challenged action is no longer a runnable destructive tool';
      const normalized = registry.normalize(spec.name, challenge.args);
      if (!normalized.ok || normalized.argsHash !== challenge.argsHash) return 'the challenged arguments no longer match their hash';
      seen.args = normalized.args;
      if (!(await deps.permissionsOfUser(confirmerId, input.incidentId)).has('elevated')) return 'the confirmer does not hold the elevated permission';
      if (!(await deps.permissionsOfUser(challenge.requestedBy, input.incidentId)).has('approve')) return 'the requester is no longer an approver';
      return undefined;
    });
    const tool = seen?.challenge.tool ?? STEP_UP;
    const argsHash = seen?.challenge.argsHash ?? 'n/a';
    if (!redemption.ok || !seen?.spec) {
      const reason = redemption.ok ? 'the challenged action is unknown' : redemption.reason;
      return deps.deny(tool, seen?.spec, bound, ErrorCode.ToolDenied, `step-up refused: ${reason}`, argsHash, seen ? { challengeId: seen.challenge.challengeId } : undefined);
    }
    const { challenge } = redemption;
    const decision = decide({ effect: 'DESTRUCTIVE', permitted: true, approval: 'step-up', breaker: breakers.degraded() ? 'open' : 'closed', cached: false, capped: false });
    if (decision.action !== 'run') return deps.deny(tool, seen.spec, bound, ErrorCode.ToolDenied, decision.reason, argsHash);
    return deps.execute({
      spec: seen.spec,
      args: seen.args,
      argsHash,
      capped: [],
      ctx: bound,
      approverId: confirmerId,
      extra: { challengeId: challenge.challengeId, requestedBy: challenge.requestedBy },
    });
  }

  return { requestStepUp, confirmStepUp };
}
