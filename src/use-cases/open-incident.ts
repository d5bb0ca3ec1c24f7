import type { IncidentStore } from '../ports/incident-store.js';
import type { ApprovalStore } from '../gateway/effect-gate/approval-store.js';
import type { ToolGateway } from '../gateway/gateway.js';

export interface GroupingDeps {
  gateway: ToolGateway;
  approvals: ApprovalStore;
  store: IncidentStore;
  enqueueAnalysis(incidentId: string, round: number): Promise<void>;
  enqueueCardRefresh?(incidentId: string): Promise<void>;
}

export interface OpenIncidentClick {
  overflowIncidentId: string;
  fingerprint: string;
  /** The verified Slack user id of the clicker. */
  userId: string;
}

export type GroupingReply = { ok: boolean; message: string; incidentId?: string };

/**
 * An operator's grouping decision through the gateway: an approver's request is the recorded
 * approval for exactly these arguments; anyone else's reaches the gateway without one, which
 * refuses and audits it. Returns the handler's value when it ran.
 */
async function decide(deps: GroupingDeps, tool: string, args: Record<string, string>, incidentId: string, userId: string): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
  const ctx = { caller: { kind: 'user', userId } as const, incidentId };
  const spec = deps.gateway.registry.get(tool);
  const normalized = deps.gateway.registry.normalize(tool, args);
  let approvalId: string | undefined;
  if (spec && normalized.ok && (await deps.gateway.permissionsOf(ctx.caller, incidentId)).has('approve')) {
    approvalId = (await deps.approvals.recordApproval({ tool, argsHash: deps.gateway.registry.approvalHash(spec, normalized.args, ctx), incidentId, approverId: userId })).approvalId;
  }
  const result = await deps.gateway.invoke({ tool, args }, approvalId ? { ...ctx, approvalId } : ctx);
  if (result.status === 'executed') return { ok: true, value: result.value };
  const why = result.status === 'proposed' ? result.reason : `${result.reason} (${result.code})`;
  return { ok: false, message: approvalId ? `Medic did not do it: ${why}` : `Only approvers can change how incidents are grouped: ${why}` };
}

/** The overflow card's Open incident button. */
export async function openIncidentFromOverflow(deps: GroupingDeps, click: OpenIncidentClick): Promise<GroupingReply> {
  const result = await decide(deps, 'incident.open-from-overflow', { overflowIncidentId: click.overflowIncidentId, fingerprint: click.fingerprint }, click.overflowIncidentId, click.userId);
  if (!result.ok) return result;
  const { incidentId, opened } = result.value as { incidentId: string; opened: boolean };
  if (opened) {
    await deps.enqueueAnalysis(incidentId, 0);
    await deps.store.clearPending(incidentId);
  }
  await deps.enqueueCardRefresh?.(click.overflowIncidentId);
  return { ok: true, incidentId, message: opened ? `Opened ${incidentId}; its analysis has started.` : `This family already has its incident: ${incidentId}.` };
}

/** `/medic merge A into B`: A's card points to B, its events and its future events count there. */
export async function mergeIncidents(deps: GroupingDeps, input: { incidentId: string; intoIncidentId: string; userId: string }): Promise<GroupingReply> {
  const result = await decide(deps, 'incident.merge', { incidentId: input.incidentId, intoIncidentId: input.intoIncidentId }, input.incidentId, input.userId);
  if (!result.ok) return result;
  await deps.enqueueCardRefresh?.(input.incidentId);
  await deps.enqueueCardRefresh?.(input.intoIncidentId);
  return { ok: true, incidentId: input.intoIncidentId, message: `Merged ${input.incidentId} into ${input.intoIncidentId}; its future events count there too.` };
}

/** `/medic split A by FIELD`: A's family divides by the field's value from the next event on. */
export async function splitFamily(deps: GroupingDeps, input: { incidentId: string; field: string; userId: string }): Promise<GroupingReply> {
  const result = await decide(deps, 'incident.split', { incidentId: input.incidentId, field: input.field }, input.incidentId, input.userId);
  if (!result.ok) return result;
  return { ok: true, incidentId: input.incidentId, message: `From the next event on, ${input.incidentId}'s family is split by ${input.field}.` };
}
