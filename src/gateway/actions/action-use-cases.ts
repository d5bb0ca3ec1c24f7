import { ErrorCode } from '../../domain/errors.js';
import type { ApprovalStore } from '../effect-gate/approval-store.js';
import type { ToolIntent } from '../registry/effect.js';
import { refuseUnlessProposable } from './model-intents.js';
import type { ToolGateway } from '../gateway.js';
import type { InvokeResult } from '../invoke-result.js';
import type { StepUpRequestResult } from '../effect-gate/step-up-flow.js';

/**
 * What a Slack button or modal triggers. The button value names an intent (`tool` + `argsHash`)
 * only; the intent itself is looked up again among those the server stored for the incident, and
 * the caller is a verified user id. Nothing in the payload can add arguments or claim approval.
 */
export interface ActionRequest {
  gateway: ToolGateway;
  /** The intents the server stored for this incident (never the ones a payload carries). */
  proposed: readonly ToolIntent[];
  tool: string;
  argsHash: string;
  incidentId: string;
  userId: string;
  traceId?: string;
}

function findProposed(request: ActionRequest): ToolIntent | undefined {
  return request.proposed.find((intent) => {
    // Stored intents came from a model: one naming a built-in (an older record) is never run from a button.
    if (intent.tool !== request.tool || refuseUnlessProposable(request.gateway.registry.get(intent.tool))) return false;
    const normalized = request.gateway.registry.normalize(intent.tool, intent.args);
    return normalized.ok && normalized.argsHash === request.argsHash;
  });
}

const STALE = 'the button names no intent proposed for this incident (stale card or forged value)';

/** The Run button of a MUTATING action: the verified approver's click is the recorded approval. */
export async function runApprovedAction(request: ActionRequest & { approvals: ApprovalStore }): Promise<InvokeResult> {
  const { gateway, incidentId, userId, traceId } = request;
  const ctx = { caller: { kind: 'user', userId } as const, incidentId, traceId };
  const intent = findProposed(request);
  if (!intent) return gateway.recordRefusal(request.tool, ctx, ErrorCode.StaleApproval, STALE);
  const spec = gateway.registry.get(intent.tool);
  const normalized = gateway.registry.normalize(intent.tool, intent.args);
  if (!spec || !normalized.ok) return gateway.invoke(intent, ctx);
  if (spec.effect === 'DESTRUCTIVE') return gateway.recordRefusal(spec.name, ctx, ErrorCode.ToolDenied, 'a destructive action needs step-up, not a Run button');
  // A non-approver records nothing: the gateway refuses and audits their click.
  if (!(await gateway.permissionsOf(ctx.caller, ctx.incidentId)).has('approve')) return gateway.invoke(intent, ctx);
  const approval = await request.approvals.recordApproval({
    tool: spec.name,
    argsHash: gateway.registry.approvalHash(spec, normalized.args, ctx),
    incidentId,
    approverId: userId,
  });
  return gateway.invoke(intent, { ...ctx, approvalId: approval.approvalId });
}

/** The first click on a DESTRUCTIVE action: issues the challenge the modal will redeem. */
export async function requestStepUp(request: ActionRequest): Promise<StepUpRequestResult> {
  const { gateway, incidentId, userId, traceId } = request;
  const ctx = { caller: { kind: 'user', userId } as const, incidentId, traceId };
  const intent = findProposed(request);
  if (!intent) return (await gateway.recordRefusal(request.tool, ctx, ErrorCode.StaleApproval, STALE)) as Extract<StepUpRequestResult, { status: 'denied' }>;
  return gateway.requestStepUp(intent, ctx);
}

/** The modal's submission: a second, elevated person typed the target's name. */
export async function confirmStepUp(input: { gateway: ToolGateway; token: string; typedTarget: string; incidentId: string; userId: string; traceId?: string }): Promise<InvokeResult> {
  return input.gateway.confirmStepUp(
    { token: input.token, typedTarget: input.typedTarget, incidentId: input.incidentId },
    { caller: { kind: 'user', userId: input.userId }, incidentId: input.incidentId, traceId: input.traceId },
  );
}

/** READ_ONLY policy diagnostics the model proposed run for the pipeline; everything else waits for a human. */
export async function runAutomaticDiagnostics(input: { gateway: ToolGateway; intents: readonly ToolIntent[]; incidentId: string; traceId?: string }): Promise<{ intent: ToolIntent; result: InvokeResult }[]> {
  const results: { intent: ToolIntent; result: InvokeResult }[] = [];
  for (const intent of input.intents) {
    const spec = input.gateway.registry.get(intent.tool);
    if (spec?.effect !== 'READ_ONLY' || refuseUnlessProposable(spec)) continue;
    results.push({ intent, result: await input.gateway.invoke(intent, { caller: { kind: 'pipeline' }, incidentId: input.incidentId, traceId: input.traceId }) });
  }
  return results;
}
