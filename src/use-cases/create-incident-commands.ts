import type { AuditEvent } from '../domain/audit.js';
import { FIX_STEPS, canTransition, transition, type Actor, type Incident } from '../domain/incident.js';
import type { IncidentStore } from '../adapters/redis/incident-store.js';
import type { AuditLog } from '../ports/audit.js';
import type { Authority } from '../ports/authority.js';
import type { Caller, CommandResult, IncidentCommands, IncidentView } from './incident-commands.js';

export interface CommandDeps {
  store: IncidentStore;
  audit: AuditLog;
  authority: Authority;
  /** Tells the tool gateway a human approved this exact fix, so the job's push passes the gate. */
  recordApproval(incident: Incident, approverId: string): Promise<void>;
  enqueueFix(incidentId: string, proposalHash: string): Promise<void>;
  enqueueAnalysis(incidentId: string, round: number): Promise<void>;
  /** Shows a fresh decision on the card and in its thread. */
  announce?: (incident: Incident) => Promise<void>;
  /** Writes a decided or resolved incident back to the documents, so Medic learns from it. */
  learn?: (incident: Incident) => Promise<void>;
  clock: () => Date;
}

const OPEN_STATES = ['new', 'analyzing', 'awaiting_approval', 'reported', 'approved', 'fixing', 'fix_failed'] as const;

/** Status and list alone: what a reader of the state needs, without authority or queues. */
export function createIncidentReads(store: IncidentStore): Pick<IncidentCommands, 'status' | 'list'> {
  const view = async (incident: Incident): Promise<IncidentView> => ({ incident, stats: await store.stats(incident.id) });
  return {
    async status(incidentId) {
      const incident = await store.get(incidentId);
      return incident ? view(incident) : undefined;
    },
    async list(options = {}) {
      const incidents = await store.list({ states: options.openOnly ? [...OPEN_STATES] : undefined, limit: options.limit ?? 50 });
      return Promise.all(incidents.map(view));
    },
  };
}

/**
 * Approve, reject, re-run, status, list, feedback — the same use-cases for Slack and the CLI.
 * Authority is re-resolved from the caller's verified id on every call; a refusal is audited.
 */
export function createIncidentCommands(deps: CommandDeps): IncidentCommands {
  const now = () => deps.clock().toISOString();
  const actorOf = (caller: Caller): Actor => ({ kind: caller.via === 'cli' ? 'operator' : 'user', id: caller.userId, name: caller.name });
  const view = async (incident: Incident): Promise<IncidentView> => ({ incident, stats: await deps.store.stats(incident.id) });

  async function deny(action: string, caller: Caller, incidentId: string, code: string, message: string): Promise<CommandResult> {
    const event: AuditEvent = { at: now(), action, outcome: 'denied', actor: actorOf(caller), incidentId, reason: message };
    await deps.audit.append([event]);
    return { ok: false, code, message };
  }

  async function authorize(action: string, caller: Caller, incidentId: string): Promise<CommandResult | undefined> {
    const permissions = await deps.authority.resolve(caller.userId);
    if (permissions.approver) return undefined;
    return deny(action, caller, incidentId, 'ERR_UNAUTHORIZED', 'Only configured approvers can do that.');
  }

  async function decide(verdict: 'approved' | 'rejected', input: { incidentId: string; caller: Caller; proposalHash: string; reason?: string }): Promise<CommandResult> {
    const action = verdict === 'approved' ? 'incident.approve' : 'incident.reject';
    const refused = await authorize(action, input.caller, input.incidentId);
    if (refused) return refused;
    const incident = await deps.store.get(input.incidentId);
    if (!incident) return { ok: false, code: 'ERR_NOT_FOUND', message: `No incident ${input.incidentId}.` };
    // A double click or a Slack retry finds the decision already made: same answer, no second effect.
    if (incident.decision?.verdict === verdict && incident.decision.proposalHash === input.proposalHash) {
      if (verdict === 'approved' && incident.state === 'approved') await deps.enqueueFix(incident.id, input.proposalHash);
      return { ok: true, view: await view(incident), message: `Already ${verdict} by ${incident.decision.actor.name ?? incident.decision.actor.id}.` };
    }
    if (incident.state !== 'awaiting_approval') {
      return deny(action, input.caller, incident.id, 'ERR_INVALID_TRANSITION', `Incident ${incident.id} is ${incident.state}; there is nothing to ${verdict === 'approved' ? 'approve' : 'reject'}.`);
    }
    if (incident.proposal?.contentHash !== input.proposalHash) {
      return deny(action, input.caller, incident.id, 'ERR_STALE_APPROVAL', 'This card shows an older proposal than the current one; refresh it and decide again.');
    }
    const at = now();
    const decided = await deps.store.update(incident.id, (current) => {
      if (current.state !== 'awaiting_approval' || current.proposal?.contentHash !== input.proposalHash) return undefined;
      const decision = { verdict, actor: actorOf(input.caller), proposalHash: input.proposalHash, at, reason: input.reason };
      return { incident: { ...transition(current, verdict, at), decision }, audit: [{ at, action, outcome: 'allowed', actor: decision.actor, reason: input.reason, details: { proposalHash: input.proposalHash } }] };
    });
    if (decided.decision?.at !== at || decided.state !== verdict) {
      return { ok: false, code: 'ERR_CONFLICT', message: `Incident ${incident.id} was decided by someone else a moment ago.` };
    }
    if (verdict === 'approved') {
      await deps.recordApproval(decided, input.caller.userId);
      await deps.enqueueFix(decided.id, input.proposalHash);
    } else {
      await deps.learn?.(decided);
    }
    await deps.announce?.(decided);
    return { ok: true, view: await view(decided), message: verdict === 'approved' ? 'Approved — pushing the fix.' : 'Rejected.' };
  }

  return {
    approve: (input) => decide('approved', input),
    reject: (input) => decide('rejected', input),
    async rerun({ incidentId, caller }) {
      const refused = await authorize('incident.rerun', caller, incidentId);
      if (refused) return refused;
      const incident = await deps.store.get(incidentId);
      if (!incident) return { ok: false, code: 'ERR_NOT_FOUND', message: `No incident ${incidentId}.` };
      if (!canTransition(incident.state, 'analyzing') || incident.state === 'new') {
        return { ok: false, code: 'ERR_INVALID_TRANSITION', message: `Incident ${incidentId} is ${incident.state}; it can be re-run once its current work finishes.` };
      }
      const at = now();
      const restarted = await deps.store.update(incidentId, (current) =>
        canTransition(current.state, 'analyzing') && current.state !== 'new'
          ? {
              incident: { ...transition(current, 'analyzing', at), round: current.round + 1, steps: restartedSteps(current), proposal: undefined, proposalNote: undefined, decision: undefined, fix: undefined, error: undefined },
              audit: [{ at, action: 'incident.rerun', outcome: 'allowed', actor: actorOf(caller) }],
            }
          : undefined,
      );
      await deps.enqueueAnalysis(incidentId, restarted.round);
      return { ok: true, view: await view(restarted), message: `Re-running the fix proposal for ${incidentId} on its current evidence and analysis.` };
    },
    ...createIncidentReads(deps.store),
    async feedback({ incidentId, caller, target, vote }) {
      const at = now();
      const incident = await deps.store.update(incidentId, (current) => ({
        incident: { ...current, feedback: [...current.feedback.filter((f) => !(f.userId === caller.userId && f.target === target)), { target, vote, userId: caller.userId, at }] },
        audit: [{ at, action: 'incident.feedback', outcome: 'done', actor: actorOf(caller), details: { target, vote } }],
      }));
      if (['fixed', 'rejected', 'closed'].includes(incident.state)) await deps.learn?.(incident);
      return { ok: true, view: await view(incident), message: `Thanks — feedback on the ${target} recorded.` };
    },
  };
}

// The evidence and the analysis stay; the fix proposal, the card outcome and any fix round are redone.
const RERUN_STEPS = new Set<string>(['fix-proposal', 'card', ...FIX_STEPS]);

/** A re-run of the fix proposal keeps every finished step before it, so it costs one LLM call. */
function restartedSteps(incident: Incident): Incident['steps'] {
  return Object.fromEntries(Object.entries(incident.steps).filter(([step]) => !RERUN_STEPS.has(step)));
}
