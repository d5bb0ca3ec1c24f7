import { ErrorCode } from '../domain/errors.js';
import { checkBlocksApproval } from '../domain/proposal-check.js';
import type { AuditEvent } from '../domain/audit.js';
import type { ErrorEvent } from '../domain/event.js';
import { isAwaitingVerification } from '../domain/verification.js';
import { FIX_STEPS, canTransition, transition, type Actor, type Incident } from '../domain/incident.js';
import type { FixOrder, IncidentStore } from '../ports/incident-store.js';
import type { AuditLog } from '../ports/audit.js';
import type { Authority } from '../ports/authority.js';
import type { Caller, CommandResult, IncidentCommands, IncidentView, Viewer } from './incident-commands.js';
import { dispatchFixOrder } from './dispatch-fix-orders.js';
import { plainStatusWord } from '../presenters/status-words.js';
import type { Metrics } from '../observability/metrics.js';
import { observeTimeTo } from '../observability/time-to.js';

export interface CommandDeps {
  store: IncidentStore;
  audit: AuditLog;
  authority: Authority;
  /** Tells the tool gateway a human approved this exact fix, so the job's push passes the gate. */
  recordApproval(incident: Incident, approverId: string): Promise<void>;
  enqueueFix(incidentId: string, proposalHash: string, round: number): Promise<void>;
  enqueueAnalysis(incidentId: string, round: number): Promise<void>;
  /** Shows a fresh decision on the card and in its thread. */
  announce?: (incident: Incident) => Promise<void>;
  /** Writes a decided or resolved incident back to the documents, so Medic learns from it. */
  learn?: (incident: Incident) => Promise<void>;
  /** Where the time from the first event to the decision is observed (`medic_time_to_seconds`). */
  metrics?: Pick<Metrics, 'timeTo'>;
  clock: () => Date;
}

const OPEN_STATES = ['new', 'analyzing', 'awaiting_approval', 'reported', 'approved', 'fixing', 'fix_failed'] as const;

/**
 * Status and list for the command-line operator, who reads everything (the CLI already runs with
 * Medic's own access to Redis): what a reader of the state needs, without authority or queues.
 */
export interface IncidentReads {
  status(incidentId: string): Promise<IncidentView | undefined>;
  list(options?: { openOnly?: boolean; limit?: number }): Promise<IncidentView[]>;
  /** The incident's kept sample events (the postmortem reads who was affected from them). */
  samples(incidentId: string): Promise<ErrorEvent[]>;
  /** Fixed incidents whose merged fix is still being watched (see isAwaitingVerification). */
  awaitingVerification(limit?: number): Promise<IncidentView[]>;
}

export function createIncidentReads(store: IncidentStore): IncidentReads {
  const view = async (incident: Incident): Promise<IncidentView> => ({ incident, stats: await store.stats(incident.id) });
  return {
    async status(incidentId) {
      const incident = await store.get(incidentId);
      // One incident's status shows its card, sparkline included; a list shows no rates.
      return incident ? { ...(await view(incident)), rate: await store.eventRate(incident.id) } : undefined;
    },
    async list(options = {}) {
      const incidents = await store.list({ states: options.openOnly ? [...OPEN_STATES] : undefined, limit: options.limit ?? 50 });
      return Promise.all(incidents.map(view));
    },
    samples: (incidentId) => store.recentEvents(incidentId),
    async awaitingVerification(limit = 200) {
      // A watch starts at the push, so its incident is fixed (a verdict moves it on).
      const fixed = await store.list({ states: ['fixed'], limit });
      return Promise.all(fixed.filter((incident) => isAwaitingVerification(incident.verification)).map(view));
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
  const reads = createIncidentReads(deps.store);

  async function deny(action: string, caller: Caller, incidentId: string, code: string, message: string): Promise<CommandResult> {
    const event: AuditEvent = { at: now(), action, outcome: 'denied', actor: actorOf(caller), incidentId, reason: message };
    await deps.audit.append([event]);
    return { ok: false, code, message };
  }

  async function authorize(action: string, caller: Caller, incidentId: string): Promise<CommandResult | undefined> {
    // Scoped to the incident: its service's approvers may, another service's may not.
    const permissions = await deps.authority.resolve(caller.userId, { incidentId });
    if (permissions.approver) return undefined;
    return deny(action, caller, incidentId, 'ERR_UNAUTHORIZED', 'Only configured approvers of this service (or global approvers) can do that.');
  }

  /** Everything for the CLI and readers; in Slack, otherwise, only incidents carded in the asking channel. */
  async function readScope(viewer: Viewer): Promise<(incident: Incident) => Promise<boolean>> {
    if (viewer.caller.via === 'cli' || (await deps.authority.resolve(viewer.caller.userId)).reader) return async () => true;
    // Elsewhere: the incident's channel, or a reader (approver) of the incident's service.
    return async (incident) => (viewer.channel !== undefined && incident.card?.channel === viewer.channel) || (await deps.authority.resolve(viewer.caller.userId, { incidentId: incident.id })).reader;
  }

  async function decide(verdict: 'approved' | 'rejected', input: { incidentId: string; caller: Caller; proposalHash: string; reason?: string }): Promise<CommandResult> {
    const action = verdict === 'approved' ? 'incident.approve' : 'incident.reject';
    const refused = await authorize(action, input.caller, input.incidentId);
    if (refused) return refused;
    const incident = await deps.store.get(input.incidentId);
    if (!incident) return { ok: false, code: 'ERR_NOT_FOUND', message: `No incident ${input.incidentId}.` };
    // A double click or a Slack retry finds the decision already made: same answer, no second effect.
    if (incident.decision?.verdict === verdict && incident.decision.proposalHash === input.proposalHash) {
      if (verdict === 'approved' && incident.state === 'approved') await dispatchFixOrder(deps, fixOrderOf(incident, incident.decision.actor.id));
      return { ok: true, view: await view(incident), message: `Already ${verdict} by ${incident.decision.actor.name ?? incident.decision.actor.id}.` };
    }
    if (incident.state !== 'awaiting_approval') {
      return deny(action, input.caller, incident.id, 'ERR_INVALID_TRANSITION', `Incident ${incident.id} is ${JSON.stringify(plainStatusWord(incident))}; there is nothing to ${verdict === 'approved' ? 'approve' : 'reject'}.`);
    }
    if (incident.proposal?.contentHash !== input.proposalHash) {
      return deny(action, input.caller, incident.id, 'ERR_STALE_APPROVAL', 'This card shows an older proposal than the current one; refresh it and decide again.');
    }
    // The card offers no Approve for a proposal whose check failed; a forged or replayed click is refused here.
    const unchecked = verdict === 'approved' ? checkBlocksApproval(incident.proposal, incident.proposalCheck) : undefined;
    if (unchecked) return deny(action, input.caller, incident.id, ErrorCode.FixRefused, unchecked);
    const at = now();
    const decided = await deps.store.update(incident.id, (current) => {
      if (current.state !== 'awaiting_approval' || current.proposal?.contentHash !== input.proposalHash) return undefined;
      if (verdict === 'approved' && checkBlocksApproval(current.proposal, current.proposalCheck)) return undefined;
      const decision = { verdict, actor: actorOf(input.caller), proposalHash: input.proposalHash, at, reason: input.reason };
      const decided = { ...transition(current, verdict, at), decision };
      // The decision, the approval record and the fix job are one promise: the outbox entry is
      // written with the decision, so a crash right after it still ends in the job.
      const order = verdict === 'approved' ? fixOrderOf(decided, input.caller.userId) : undefined;
      return { incident: decided, audit: [{ at, action, outcome: 'allowed', actor: decision.actor, reason: input.reason, details: { proposalHash: input.proposalHash } }], ...(order ? { order } : {}) };
    });
    if (decided.decision?.at !== at || decided.state !== verdict) {
      return { ok: false, code: 'ERR_CONFLICT', message: `Incident ${incident.id} was decided by someone else a moment ago.` };
    }
    if (deps.metrics) observeTimeTo(deps.metrics, decided, 'decision', at);
    if (verdict === 'approved') {
      await dispatchFixOrder(deps, fixOrderOf(decided, input.caller.userId));
    } else {
      await deps.learn?.(decided);
    }
    await deps.announce?.(decided);
    return { ok: true, view: await view(decided), message: verdict === 'approved' ? 'Approved — pushing the fix.' : 'Rejected.' };
  }

  async function status(incidentId: string, viewer: Viewer): Promise<IncidentView | undefined> {
    const found = await reads.status(incidentId);
    if (!found) return undefined;
    if (!(await (await readScope(viewer))(found.incident))) {
      await deny('incident.read', viewer.caller, incidentId, 'ERR_UNAUTHORIZED', `read outside the incident's channel (${viewer.channel ?? 'no channel'}) by someone not in MEDIC_READERS nor among the service's readers`);
      return undefined;
    }
    return found;
  }

  return {
    approve: (input) => decide('approved', input),
    reject: (input) => decide('rejected', input),
    async rerun({ incidentId, caller, reason, confirmed }) {
      const refused = await authorize('incident.rerun', caller, incidentId);
      if (refused) return refused;
      const incident = await deps.store.get(incidentId);
      if (!incident) return { ok: false, code: 'ERR_NOT_FOUND', message: `No incident ${incidentId}.` };
      if (!canTransition(incident.state, 'analyzing') || incident.state === 'new') {
        return { ok: false, code: 'ERR_INVALID_TRANSITION', message: `Incident ${incidentId} is ${JSON.stringify(plainStatusWord(incident))}; it can be re-run once its current work finishes.` };
      }
      if (incident.fix && !confirmed) {
        return { ok: false, code: 'ERR_CONFIRM_REQUIRED', message: `Incident ${incidentId} already has branch ${incident.fix.branch}${incident.fix.pullRequest ? ` and draft PR #${incident.fix.pullRequest.number}` : ''}. Re-running analyses it again and proposes a new fix; the branch stays on record. Confirm to go ahead.` };
      }
      const at = now();
      const restarted = await deps.store.update(incidentId, (current) =>
        canTransition(current.state, 'analyzing') && current.state !== 'new' && (confirmed || !current.fix)
          ? {
              incident: {
                ...transition(current, 'analyzing', at), round: current.round + 1, steps: restartedSteps(current),
                review: reviewOf(current, reason, caller, at),
                earlierFixes: current.fix ? [...current.earlierFixes, current.fix] : current.earlierFixes,
                rca: undefined, recommendation: undefined, diagnostics: undefined, proposal: undefined, proposalNote: undefined, decision: undefined, fix: undefined, error: undefined,
              },
              audit: [{ at, action: 'incident.rerun', outcome: 'allowed', actor: actorOf(caller), ...(reason ? { reason } : {}), details: { confirmed: Boolean(confirmed), keptBranch: current.fix?.branch ?? null } }],
            }
          : undefined,
      );
      if (restarted.round === incident.round) return { ok: false, code: 'ERR_CONFLICT', message: `Incident ${incidentId} changed a moment ago; try again.` };
      await deps.enqueueAnalysis(incidentId, restarted.round);
      const given = restarted.review?.reason ? ' with your reason' : '';
      return { ok: true, view: await view(restarted), message: `Re-running the analysis and the fix proposal for ${incidentId}${given}; the previous proposal is shown to the analyst so it is not repeated blindly.` };
    },
    status,
    async list(viewer, options = {}) {
      const readable = await readScope(viewer);
      const found = await reads.list(options);
      const allowed = await Promise.all(found.map((f) => readable(f.incident)));
      return found.filter((_f, i) => allowed[i]);
    },
    async awaitingVerification(viewer) {
      const readable = await readScope(viewer);
      const found = await reads.awaitingVerification();
      const allowed = await Promise.all(found.map((f) => readable(f.incident)));
      return found.filter((_f, i) => allowed[i]);
    },
    async timeline(incidentId, viewer) {
      const view = await status(incidentId, viewer);
      return view ? { view, trail: await deps.audit.list({ incidentId }) } : undefined;
    },
    async feedback({ incidentId, caller, target, vote }) {
      const refused = await authorize('incident.feedback', caller, incidentId);
      if (refused) return { ok: false, code: refused.ok ? 'ERR_UNAUTHORIZED' : refused.code, message: "Only approvers' feedback counts: it labels what Medic learns from." };
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

function fixOrderOf(incident: Incident, approverId: string): FixOrder {
  return { kind: 'apply-fix', incidentId: incident.id, proposalHash: incident.decision?.proposalHash ?? '', round: incident.round, approverId };
}

// The evidence stays (logs, similar docs, recent changes); the analysis and the fix are redone.
const RERUN_STEPS = new Set<string>(['rca', 'recommend', 'diagnostics', 'fix-proposal', 'proposal-check', 'card', ...FIX_STEPS]);

/** A re-run keeps every evidence step before the analysis. */
function restartedSteps(incident: Incident): Incident['steps'] {
  return Object.fromEntries(Object.entries(incident.steps).filter(([step]) => !RERUN_STEPS.has(step)));
}

/** The replaced proposal's hash and, when it was this round's and decided, the verdict on it. */
function previousVerdict(incident: Incident, previous: { contentHash?: string | undefined; verdict?: 'approved' | 'rejected' | undefined }) {
  const hash = previous.contentHash;
  const verdict = incident.proposal && incident.decision?.proposalHash === hash ? incident.decision?.verdict : previous.verdict;
  return { ...(hash ? { contentHash: hash } : {}), ...(verdict ? { verdict } : {}) };
}

/** The reason given now, else the rejection's; and the proposal and cause it replaces. */
function reviewOf(incident: Incident, reason: string | undefined, caller: Caller, at: string): Incident['review'] {
  const given = reason?.trim() || (incident.decision?.verdict === 'rejected' ? incident.decision.reason : undefined);
  const previous = incident.proposal ?? incident.review?.previousProposal;
  return {
    ...(given ? { reason: given.slice(0, 1_000) } : {}),
    ...(incident.rca ? { previousRootCause: incident.rca.rootCause } : {}),
    ...(previous ? { previousProposal: { file: previous.file, diff: previous.diff, explanation: previous.explanation, ...previousVerdict(incident, previous) } } : {}),
    by: caller.userId,
    at,
  };
}
