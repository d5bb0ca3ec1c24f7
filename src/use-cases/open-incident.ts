import type { IncidentStore } from '../adapters/redis/incident-store.js';
import type { ApprovalStore } from '../gateway/approval-store.js';
import type { ToolGateway } from '../gateway/gateway.js';

export interface OpenIncidentDeps {
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

const TOOL = 'incident.open-from-overflow';

/**
 * The overflow card's Open incident button: an approver's click is the recorded approval for
 * exactly this family, and the gateway runs, refuses and audits the call. A non-approver's click
 * reaches the gateway without an approval, which refuses and audits it.
 */
export async function openIncidentFromOverflow(deps: OpenIncidentDeps, click: OpenIncidentClick): Promise<{ ok: boolean; message: string; incidentId?: string }> {
  const intent = { tool: TOOL, args: { overflowIncidentId: click.overflowIncidentId, fingerprint: click.fingerprint } };
  const ctx = { caller: { kind: 'user', userId: click.userId } as const, incidentId: click.overflowIncidentId };
  let approvalId: string | undefined;
  const spec = deps.gateway.registry.get(TOOL);
  const normalized = deps.gateway.registry.normalize(TOOL, intent.args);
  if (spec && normalized.ok && (await deps.gateway.permissionsOf(ctx.caller)).has('approve')) {
    const approval = await deps.approvals.recordApproval({
      tool: TOOL, argsHash: deps.gateway.registry.approvalHash(spec, normalized.args, ctx), incidentId: click.overflowIncidentId, approverId: click.userId,
    });
    approvalId = approval.approvalId;
  }
  const result = await deps.gateway.invoke(intent, approvalId ? { ...ctx, approvalId } : ctx);
  if (result.status !== 'executed') {
    const why = result.status === 'proposed' ? result.reason : `${result.reason} (${result.code})`;
    return { ok: false, message: approvalId ? `Medic did not open the incident: ${why}` : `Only approvers can open an incident from the overflow: ${why}` };
  }
  const { incidentId, opened } = result.value as { incidentId: string; opened: boolean };
  if (opened) {
    await deps.enqueueAnalysis(incidentId, 0);
    await deps.store.clearPending(incidentId);
  }
  await deps.enqueueCardRefresh?.(click.overflowIncidentId);
  return { ok: true, incidentId, message: opened ? `Opened ${incidentId}; its analysis has started.` : `This family already has its incident: ${incidentId}.` };
}
