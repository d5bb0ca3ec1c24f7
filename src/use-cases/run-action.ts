/**
 * What the card's action buttons trigger. Each use-case re-reads the incident, finds the intent
 * among those stored for it (by tool + args hash, never from the button), and goes through the
 * gateway with the clicker's verified user id. The gateway decides and audits; this records the
 * outcome on the incident, replies in the thread and refreshes the card.
 */
import type { IncidentStore } from '../ports/incident-store.js';
import type { Incident, ProposedAction } from '../domain/incident.js';
import { confirmStepUp, requestStepUp, runApprovedAction } from '../gateway/actions/action-use-cases.js';
import { toActionOutcome } from '../gateway/actions/action-outcome.js';
import type { ApprovalStore } from '../gateway/effect-gate/approval-store.js';
import type { ToolGateway } from '../gateway/gateway.js';
import type { InvokeResult } from '../gateway/invoke-result.js';
import type { ChatMessage } from '../ports/chat.js';
import type { CardDeliveries } from '../ports/card-delivery.js';
import { presentActionResult } from '../presenters/card-intents.js';
import { presentStepUpRequest } from '../presenters/step-up-modal.js';

export interface ActionClick {
  incidentId: string;
  tool: string;
  argsHash: string;
  /** The verified Slack user id of the clicker. */
  userId: string;
}

/** `message` goes to the clicker alone; what everyone should see is posted in the thread. */
export interface ActionReply {
  ok: boolean;
  message: string;
}

export interface ActionCommands {
  run(input: ActionClick): Promise<ActionReply>;
  requestStepUp(input: ActionClick): Promise<ActionReply>;
  /** What the confirm modal shows; undefined when the challenge is not pending on this incident. */
  stepUpPrompt(input: { incidentId: string; challengeId: string }): Promise<{ tool: string; target: string } | undefined>;
  confirmStepUp(input: { incidentId: string; challengeId: string; typedTarget: string; userId: string }): Promise<ActionReply>;
}

export interface ActionDeps {
  gateway: ToolGateway;
  approvals: ApprovalStore;
  store: IncidentStore;
  /** The card's delivery path, the one every card and thread write takes. */
  deliveries: CardDeliveries;
  clock: () => Date;
}

const stored = (incident: Incident | undefined) => incident?.diagnostics?.actions ?? [];
const find = (incident: Incident | undefined, tool: string, argsHash: string) => stored(incident).find((a) => a.tool === tool && a.argsHash === argsHash);
const refusal = (tool: string, result: InvokeResult): ActionReply => ({
  ok: false,
  message: `Medic did not run ${tool}: ${result.status === 'proposed' ? result.reason : 'code' in result ? `${result.reason} (${result.code})` : result.status}`,
});

export function createActionCommands(deps: ActionDeps): ActionCommands {
  const now = () => deps.clock().toISOString();

  /** Writes one action's new state; `change` returns undefined to leave the record as it is. */
  async function patchAction(incidentId: string, tool: string, argsHash: string, change: (action: ProposedAction) => ProposedAction | undefined, audit: { action: string; userId: string; outcome: 'done' | 'allowed' | 'denied' | 'failed' }): Promise<{ incident: Incident; applied: boolean }> {
    let applied = false;
    const incident = await deps.store.update(incidentId, (current) => {
      applied = false;
      const actions = stored(current);
      const index = actions.findIndex((a) => a.tool === tool && a.argsHash === argsHash);
      const before = actions[index];
      const after = before && change(before);
      if (!after || !current.diagnostics) return undefined;
      applied = true;
      const at = now();
      return {
        incident: { ...current, diagnostics: { ...current.diagnostics, actions: actions.map((a, i) => (i === index ? after : a)) }, updatedAt: at },
        audit: [{ at, action: audit.action, outcome: audit.outcome, actor: { kind: 'user', id: audit.userId }, incidentId, details: { tool, argsHash } }],
      };
    });
    return { incident, applied };
  }

  /** Thread and card are courtesy: the action's outcome is already stored and audited. */
  async function announce(incident: Incident, key: string, action: ProposedAction | undefined): Promise<void> {
    if (action) await deps.deliveries.requestReply(incident.id, key, presentActionResult(action));
    await deps.deliveries.requestCard(incident.id, incident.version, 'final');
  }

  async function reply(incident: Incident, key: string, message: ChatMessage): Promise<void> {
    await deps.deliveries.requestReply(incident.id, key, message);
  }

  return {
    async run({ incidentId, tool, argsHash, userId }) {
      const incident = await deps.store.get(incidentId);
      const action = find(incident, tool, argsHash);
      const request = { gateway: deps.gateway, approvals: deps.approvals, proposed: action ? [{ tool: action.tool, args: action.args }] : [], tool, argsHash, incidentId, userId };
      // Not an approver, or a stale/forged button: the gateway refuses and audits; nothing is claimed.
      if (!action || !(await deps.gateway.permissionsOf({ kind: 'user', userId }, incidentId)).has('approve')) return refusal(tool, await runApprovedAction(request));
      const at = now();
      // Claimed before the call, under the record's version: a second click finds it taken.
      const claim = await patchAction(incidentId, tool, argsHash, (a) => (a.outcome?.status === 'running' || a.outcome?.status === 'executed' ? undefined : { ...a, outcome: { status: 'running', at, by: userId } }), { action: 'action.claim', userId, outcome: 'allowed' });
      if (!claim.applied) {
        const outcome = find(claim.incident, tool, argsHash)?.outcome;
        return { ok: false, message: `${tool} was already ${outcome?.status === 'running' ? 'started' : 'run'}${outcome?.by ? ` by <@${outcome.by}>` : ''}; Medic did not run it again.` };
      }
      const result = await runApprovedAction(request);
      const done = await patchAction(incidentId, tool, argsHash, (a) => ({ ...a, outcome: toActionOutcome(result, now(), userId) }), { action: 'action.run', userId, outcome: result.status === 'executed' ? 'done' : result.status === 'failed' ? 'failed' : 'denied' });
      await announce(done.incident, `action:${incidentId}:${tool}:${argsHash}:${at}`, find(done.incident, tool, argsHash));
      return result.status === 'executed' ? { ok: true, message: `Ran ${tool}; the result is in the thread.` } : refusal(tool, result);
    },

    async requestStepUp({ incidentId, tool, argsHash, userId }) {
      const incident = await deps.store.get(incidentId);
      const action = find(incident, tool, argsHash);
      const result = await requestStepUp({ gateway: deps.gateway, proposed: action ? [{ tool: action.tool, args: action.args }] : [], tool, argsHash, incidentId, userId });
      if (result.status !== 'challenge' || !action) return { ok: false, message: `Medic did not request a step-up for ${tool}: ${result.status === 'challenge' ? 'unknown intent' : `${result.reason} (${result.code})`}` };
      const { challenge } = result;
      const saved = await patchAction(incidentId, tool, argsHash, (a) => ({ ...a, stepUp: { challengeId: challenge.challengeId, token: challenge.token, requestedBy: userId, expiresAt: challenge.expiresAt } }), { action: 'action.step-up-requested', userId, outcome: 'allowed' });
      const request = presentStepUpRequest({ incidentId, challengeId: challenge.challengeId }, action, userId);
      await reply(saved.incident, `step-up:${challenge.challengeId}`, request);
      return { ok: true, message: `Step-up requested for ${tool} on ${challenge.target}: a second, elevated approver must confirm in the thread.` };
    },

    async stepUpPrompt({ incidentId, challengeId }) {
      const action = stored(await deps.store.get(incidentId)).find((a) => a.stepUp?.challengeId === challengeId);
      return action ? { tool: action.tool, target: action.target ?? action.tool } : undefined;
    },

    async confirmStepUp({ incidentId, challengeId, typedTarget, userId }) {
      const action = stored(await deps.store.get(incidentId)).find((a) => a.stepUp?.challengeId === challengeId);
      // The gateway audits the refusal either way; an unknown challenge gets a token that redeems nothing.
      const result = await confirmStepUp({ gateway: deps.gateway, token: action?.stepUp?.token ?? 'none', typedTarget, incidentId, userId });
      if (result.status !== 'executed' || !action) return refusal(action?.tool ?? 'the step-up', result);
      const done = await patchAction(incidentId, action.tool, action.argsHash, (a) => ({ ...a, stepUp: undefined, outcome: toActionOutcome(result, now(), userId) }), { action: 'action.step-up-confirmed', userId, outcome: 'done' });
      await announce(done.incident, `action:${incidentId}:${challengeId}`, find(done.incident, action.tool, action.argsHash));
      return { ok: true, message: `Confirmed: ${action.tool} ran; the result is in the thread.` };
    },
  };
}
