/**
 * An IncidentCommands test implementation that behaves like the real one
 * (`createIncidentCommands`): authority re-resolved from the caller's verified id, approval bound to
 * the proposal hash, idempotent on repeats, and the slow part (the apply-fix job) run after the
 * answer. Its "job" updates the card through the Chat port and replies in the thread with the
 * `fix/…` branch, as the real pipeline does.
 */
import { ErrorCode } from '../../../src/domain/errors.js';
import { fixBranchName } from '../../../src/domain/fix.js';
import type { AuditEvent } from '../../../src/domain/audit.js';
import type { Incident } from '../../../src/domain/incident.js';
import { isAwaitingVerification } from '../../../src/domain/verification.js';
import type { Authority } from '../../../src/ports/authority.js';
import type { Chat } from '../../../src/ports/chat.js';
import { presentIncidentCard } from '../../../src/presenters/incident-card.js';
import { presentThreadReply } from '../../../src/presenters/thread-reply.js';
import type { Caller, CommandResult, IncidentCommands, IncidentView, Viewer } from '../../../src/use-cases/incident-commands.js';

type Call = { method: keyof IncidentCommands; input: unknown };

export class FakeIncidentCommands implements IncidentCommands {
  readonly incidents = new Map<string, Incident>();
  readonly calls: Call[] = [];
  /** apply-fix jobs enqueued (one per incident + proposal hash, like the real jobId). */
  readonly enqueued = new Set<string>();
  /** Audit records per incident, as `timeline` returns them. */
  readonly trails = new Map<string, AuditEvent[]>();
  private readonly jobs: Promise<void>[] = [];

  constructor(private readonly deps: { authority: Authority; chat?: Chat; now?: () => string }) {}

  add(incident: Incident): void {
    this.incidents.set(incident.id, incident);
  }

  /** Waits for every enqueued job, so a test asserts on a settled state without timing. */
  async settle(): Promise<void> {
    while (this.jobs.length > 0) await this.jobs.shift();
  }

  private view(incident: Incident): IncidentView {
    return { incident };
  }

  private async decide(input: { incidentId: string; caller: Caller; proposalHash: string }, verdict: 'approved' | 'rejected', reason?: string): Promise<CommandResult> {
    const permissions = await this.deps.authority.resolve(input.caller.userId);
    if (!permissions.approver) return { ok: false, code: ErrorCode.Unauthorized, message: 'Only approvers can decide on a fix: ask someone in MEDIC_APPROVERS or the approver group.' };
    const incident = this.incidents.get(input.incidentId);
    if (!incident) return { ok: false, code: ErrorCode.NotFound, message: `No incident ${input.incidentId}.` };
    if (!incident.proposal || incident.proposal.contentHash !== input.proposalHash) {
      return { ok: false, code: ErrorCode.StaleApproval, message: 'This card shows an older proposal; the fix changed since. Review the updated card.' };
    }
    if (incident.decision?.proposalHash === input.proposalHash) {
      const same = incident.decision.verdict === verdict;
      return same ? { ok: true, view: this.view(incident), message: `Already ${verdict}; nothing changed.` } : { ok: false, code: ErrorCode.Conflict, message: `Already ${incident.decision.verdict}.` };
    }
    if (incident.state !== 'awaiting_approval') return { ok: false, code: ErrorCode.InvalidTransition, message: `The incident is ${incident.state}.` };
    const at = this.deps.now?.() ?? new Date().toISOString();
    const decided: Incident = {
      ...incident,
      state: verdict,
      decision: { verdict, actor: { kind: 'user', id: input.caller.userId, ...(input.caller.name ? { name: input.caller.name } : {}) }, proposalHash: input.proposalHash, at, ...(reason ? { reason } : {}) },
    };
    this.incidents.set(decided.id, decided);
    if (verdict === 'approved') this.enqueue(decided);
    else this.jobs.push(this.render(decided, 'rejected'));
    return { ok: true, view: this.view(decided), message: verdict === 'approved' ? 'Approved: Medic is preparing the fix.' : 'Rejected; the reason is on the card.' };
  }

  private enqueue(incident: Incident): void {
    const jobId = `apply-fix:${incident.id}:${incident.decision?.proposalHash ?? ''}`;
    if (this.enqueued.has(jobId)) return;
    this.enqueued.add(jobId);
    this.jobs.push(this.applyFix(incident));
  }

  private async render(incident: Incident, event?: 'rejected' | 'branch'): Promise<void> {
    const chat = this.deps.chat;
    if (!chat || !incident.card) return;
    await chat.updateCard(incident.card, presentIncidentCard(this.view(incident)));
    if (event) await chat.replyInThread(incident.card, `${event}:${incident.id}:${incident.round}`, presentThreadReply(this.view(incident), event));
  }

  /** The apply-fix job, reduced to its visible effects: card → approved, branch, card → fixed, thread reply. */
  private async applyFix(approved: Incident): Promise<void> {
    await this.render(approved);
    const branch = fixBranchName(approved.id, approved.decision?.at ?? '');
    const fixed: Incident = { ...approved, state: 'fixed', fix: { branch, commit: '0123456789abcdef', pushStatus: 'pushed' } };
    this.incidents.set(fixed.id, fixed);
    await this.render(fixed, 'branch');
  }

  async approve(input: { incidentId: string; caller: Caller; proposalHash: string }): Promise<CommandResult> {
    this.calls.push({ method: 'approve', input });
    return this.decide(input, 'approved');
  }

  async reject(input: { incidentId: string; caller: Caller; proposalHash: string; reason: string }): Promise<CommandResult> {
    this.calls.push({ method: 'reject', input });
    return this.decide(input, 'rejected', input.reason);
  }

  async rerun(input: { incidentId: string; caller: Caller; reason?: string; confirmed?: boolean }): Promise<CommandResult> {
    this.calls.push({ method: 'rerun', input });
    const permissions = await this.deps.authority.resolve(input.caller.userId);
    if (!permissions.approver) return { ok: false, code: ErrorCode.Unauthorized, message: 'Only approvers can re-run an analysis.' };
    const incident = this.incidents.get(input.incidentId);
    if (!incident) return { ok: false, code: ErrorCode.NotFound, message: `No incident ${input.incidentId}.` };
    // Like the real use-case: a pushed branch needs a confirmation first.
    if (incident.fix && !input.confirmed) return { ok: false, code: 'ERR_CONFIRM_REQUIRED', message: `Incident ${incident.id} already has branch ${incident.fix.branch}. Confirm to go ahead.` };
    return { ok: true, view: this.view(incident), message: `Re-running the analysis of ${incident.id}.` };
  }

  async status(incidentId: string, viewer: Viewer): Promise<IncidentView | undefined> {
    this.calls.push({ method: 'status', input: { incidentId, viewer } });
    const incident = this.incidents.get(incidentId);
    return incident ? this.view(incident) : undefined;
  }

  async list(viewer: Viewer, options?: { openOnly?: boolean; limit?: number }): Promise<IncidentView[]> {
    this.calls.push({ method: 'list', input: { viewer, options } });
    return [...this.incidents.values()].filter((i) => !options?.openOnly || i.state !== 'closed').map((i) => this.view(i));
  }

  async awaitingVerification(viewer: Viewer): Promise<IncidentView[]> {
    this.calls.push({ method: 'awaitingVerification', input: { viewer } });
    return [...this.incidents.values()].filter((i) => i.state === 'fixed' && isAwaitingVerification(i.verification)).map((i) => this.view(i));
  }

  async timeline(incidentId: string, viewer: Viewer): Promise<{ view: IncidentView; trail: AuditEvent[] } | undefined> {
    this.calls.push({ method: 'timeline', input: { incidentId, viewer } });
    const incident = this.incidents.get(incidentId);
    return incident ? { view: this.view(incident), trail: this.trails.get(incidentId) ?? [] } : undefined;
  }

  async feedback(input: { incidentId: string; caller: Caller; target: 'rca' | 'fix'; vote: 'up' | 'down' }): Promise<CommandResult> {
    this.calls.push({ method: 'feedback', input });
    const incident = this.incidents.get(input.incidentId);
    if (!incident) return { ok: false, code: ErrorCode.NotFound, message: `No incident ${input.incidentId}.` };
    return { ok: true, view: this.view(incident), message: 'Thanks.' };
  }
}
