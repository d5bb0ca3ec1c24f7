import { LLM_UPSTREAM } from './registry/llm-tools.js';
import { ErrorCode, asMedicError, type ErrorCode as Code } from '../domain/errors.js';
import type { AuditLog } from '../ports/audit.js';
import type { Authority, AuthorityScope } from '../ports/authority.js';
import type { ApprovalStore, TargetLocks } from './effect-gate/approval-store.js';
import { createBreakers, createReadCache, type Breakers, type ReadCache } from './degradation/circuit-breaker.js';
import { decide, type GateInput } from './effect-gate/decide.js';
import { type GatewayCaller, type InvocationContext, type Permission, type ToolIntent } from './registry/effect.js';
import { appendOrWithhold, buildGatewayAudit, type GatewayAuditInput } from './audit/gateway-audit.js';
import { CLIENT_PLANE_ACTIONS, hashArgs, type ToolRegistry } from './registry/registry.js';
import { runHandler } from './effect-gate/run-handler.js';
import { createStepUpFlow, type StepUpRequestResult } from './effect-gate/step-up-flow.js';
import type { StepUpChallenges } from './effect-gate/step-up.js';
import type { AnyToolSpec } from './registry/tool-spec.js';
import type { Execution, InvokeResult } from './invoke-result.js';


export interface ToolGateway {
  readonly registry: ToolRegistry;
  /** The one door: every intent is validated, authorized, gated, run (or not) and audited once. */
  invoke(intent: ToolIntent, ctx: InvocationContext): Promise<InvokeResult>;
  requestStepUp(intent: ToolIntent, ctx: InvocationContext): Promise<StepUpRequestResult>;
  confirmStepUp(input: { token: string; typedTarget: string; incidentId: string }, ctx: InvocationContext): Promise<InvokeResult>;
  /** Audits a refusal decided outside the gateway (e.g. a button naming no proposed intent). */
  recordRefusal(tool: string, ctx: InvocationContext, code: Code, reason: string): Promise<InvokeResult>;
  /** Re-resolved from the verified identity on every call; the pipeline holds `read` only. */
  permissionsOf(caller: GatewayCaller, incidentId?: string): Promise<Set<Permission>>;
  /** "provider rate-limited — degraded to read-only diagnostics: …" while degraded, for the card. */
  degradedNotice(): string | undefined;
  /** Resolves once every timed-out call has settled and its reconciliation is audited (shutdown, tests). */
  whenReconciled(): Promise<void>;
}

export interface ToolGatewayOptions {
  registry: ToolRegistry;
  /**
   * What a cached read also depends on besides its arguments: with a service catalog, the
   * repository of the call's incident (`code.list-files {}` of one repository is not another's).
   */
  cacheScope?: (ctx: InvocationContext) => Promise<string>;
  authority: Authority;
  audit: AuditLog;
  approvals: ApprovalStore;
  locks: TargetLocks;
  /** Without it DESTRUCTIVE actions can be proposed but never confirmed. */
  challenges?: StepUpChallenges;
  breakers?: Breakers;
  cache?: ReadCache;
  readTimeoutMs?: number;
  writeTimeoutMs?: number;
  now?: () => number;
}

export function createToolGateway(options: ToolGatewayOptions): ToolGateway {
  const { registry, authority, audit, approvals, locks } = options;
  const now = options.now ?? Date.now;
  const breakers = options.breakers ?? createBreakers({ failureThreshold: 3, cooldownMs: 30_000, advisory: [LLM_UPSTREAM], now });
  const cache = options.cache ?? createReadCache({ ttlMs: 120_000, now });
  const scopeOf = (ctx: InvocationContext) => options.cacheScope?.(ctx) ?? Promise.resolve('');

  // The incident scopes the authority to its service's approvers (the catalog), besides the global ones.
  async function permissionsOfUser(userId: string, incidentId?: string | AuthorityScope): Promise<Set<Permission>> {
    const p = await authority.resolve(userId, incidentId === undefined ? undefined : typeof incidentId === 'string' ? { incidentId } : incidentId);
    const held = new Set<Permission>();
    if (p.approver || p.elevated) held.add('read').add('approve');
    if (p.elevated) held.add('elevated');
    return held;
  }
  const permissionsOf = async (caller: GatewayCaller, incidentId?: string) => (caller.kind === 'pipeline' ? new Set<Permission>(['read']) : permissionsOfUser(caller.userId, incidentId));

  async function record(input: GatewayAuditInput): Promise<void> {
    await appendOrWithhold(audit, buildGatewayAudit(input, new Date(now()).toISOString()));
  }

  async function deny(tool: string, spec: AnyToolSpec | undefined, ctx: InvocationContext, code: Code, reason: string, argsHash: string, extra?: Record<string, unknown>): Promise<InvokeResult> {
    await record({ tool, effect: spec?.effect ?? 'UNKNOWN', decision: 'denied', reason, argsHash, ctx, code, extra });
    return { status: 'denied', code, reason, argsHash };
  }

  /** Runs a call that passed the gate: lock (writes), deadline, breaker, cache, grants, audit. */
  async function execute(run: Execution): Promise<InvokeResult> {
    const { spec, args, argsHash, ctx } = run;
    const writes = spec.effect !== 'READ_ONLY';
    const target = writes && spec.target ? `${spec.upstream}:${spec.target(args)}` : undefined;
    const lease = target ? await locks.acquire(target) : undefined;
    if (target && !lease) return deny(spec.name, spec, ctx, ErrorCode.Conflict, `another action on ${target} is in flight; try again when it finishes`, argsHash, run.extra);
    let unlocked = false;
    // Released alongside the audit append (one connection keeps the order), saving a round trip.
    const unlock = async () => {
      if (unlocked || !lease) return;
      unlocked = true;
      await lease.release();
    };
    const extra = { ...run.extra, ...(run.approval ? { approvalId: run.approval.approvalId } : {}), ...(run.approverId ? { approverId: run.approverId } : {}), ...(run.capped.length ? { capped: run.capped } : {}) };
    /** What a success leaves behind: the follow-up grant and, for a one-shot approval, its spending. */
    const afterSuccess = (value: unknown) => {
      const grant = spec.grants?.(args, value);
      return [
        grant && ctx.incidentId && run.approverId
          ? approvals.recordApproval({ tool: grant.tool, argsHash: hashArgs(grant.key), incidentId: ctx.incidentId, approverId: run.approverId })
          : undefined,
        run.approval && !spec.idempotent ? approvals.consumeApproval(run.approval) : undefined,
      ];
    };
    try {
      const timeoutMs = spec.timeoutMs ?? (writes ? (options.writeTimeoutMs ?? 120_000) : (options.readTimeoutMs ?? 5_000));
      const fenced = lease ? { fence: lease.fence, admit: () => lease.admit() } : undefined;
      const outcome = await runHandler(spec, args, { ...ctx, approverId: run.approverId, ...(fenced ? { lease: fenced } : {}) }, timeoutMs, lease?.lost);
      if (outcome.kind === 'threw') {
        if (!spec.selfPaced) breakers.recordFailure(spec.upstream, outcome.error);
        const error = asMedicError(outcome.error);
        await Promise.all([record({ tool: spec.name, effect: spec.effect, decision: 'failed', reason: error.message, argsHash, ctx, code: error.code, extra }), unlock()]);
        return { status: 'failed', code: error.code, reason: error.message, argsHash, error };
      }
      if (outcome.kind === 'timed-out') {
        if (!spec.selfPaced) breakers.recordFailure(spec.upstream, outcome.error);
        const { error } = outcome;
        const reason = `${error.message} The call may still complete: outcome unknown until it settles, then reconciled.`;
        await record({ tool: spec.name, effect: spec.effect, decision: 'unknown', reason, argsHash, ctx, code: error.code, extra });
        // The write lock stays held (its lease renewed) until the handler settles, so a retry cannot
        // race a push still in flight; if this process dies the lease lapses and a retry may run.
        unlocked = true;
        reconcile(outcome.late, async (late) => {
          const decision = late.ok ? 'late-executed' : 'late-failed';
          const why = late.ok ? 'completed after its deadline' : `failed after its deadline: ${asMedicError(late.error).message}`;
          await Promise.all([
            ...(late.ok ? afterSuccess(late.value) : []),
            record({ tool: spec.name, effect: spec.effect, decision, reason: why, argsHash, ctx, extra }),
          ]);
          await lease?.release();
        });
        return { status: 'failed', code: error.code, reason, argsHash, error, outcomeUnknown: true };
      }
      const { value } = outcome;
      breakers.recordSuccess(spec.upstream);
      if (spec.cacheable) cache.set(`${spec.name}:${await scopeOf(ctx)}:${argsHash}`, value);
      await Promise.all([
        // The approval is spent before the lock is freed, so no second call can run on the same click.
        ...afterSuccess(value),
        record({ tool: spec.name, effect: spec.effect, decision: 'executed', reason: 'done', argsHash, ctx, extra }),
        unlock(),
      ]);
      return { status: 'executed', value, fromCache: false, argsHash, capped: run.capped };
    } finally {
      await unlock();
    }
  }

  const reconciling = new Set<Promise<void>>();
  /** Audits a timed-out call's real end once it comes; a failure to audit it is kept from crashing the process. */
  function reconcile<T>(late: Promise<T>, settle: (value: T) => Promise<void>): void {
    const done: Promise<void> = late.then(settle).catch(() => undefined).finally(() => reconciling.delete(done));
    reconciling.add(done);
  }

  async function invoke(intent: ToolIntent, ctx: InvocationContext): Promise<InvokeResult> {
    const tool = String(intent.tool);
    if (intent.plane === 'client' || (CLIENT_PLANE_ACTIONS as readonly string[]).includes(tool)) {
      return deny(tool, undefined, ctx, ErrorCode.ToolDenied, 'client-plane intent: the server plane runs server tools only', 'n/a');
    }
    const normalized = registry.normalize(tool, intent.args);
    if (!normalized.ok) return deny(tool, normalized.spec, ctx, normalized.code, normalized.reason, normalized.argsHash);
    const { spec, args, argsHash, capped } = normalized;
    if (!spec.available) return deny(tool, spec, ctx, ErrorCode.ToolDenied, `${spec.name} is not configured here (its ${spec.upstream} port is missing)`, argsHash);
    const needsApproval = spec.effect !== 'READ_ONLY' || capped.length > 0;
    if (needsApproval && !ctx.incidentId) return deny(tool, spec, ctx, ErrorCode.ValidationFailed, 'an action that needs approval must belong to an incident', argsHash);

    const held = await permissionsOf(ctx.caller, ctx.incidentId);
    // A claimed reference is always checked, even on a read: a forged claim is refused, not ignored.
    const approval = (needsApproval || ctx.approvalId !== undefined) && ctx.incidentId ? await approvals.findApproval(spec.name, registry.approvalHash(spec, args, ctx), ctx.incidentId) : undefined;
    const forged = ctx.approvalId !== undefined && ctx.approvalId !== approval?.approvalId;
    let permitted = spec.effect === 'READ_ONLY' ? held.has(spec.permission) : ctx.caller.kind === 'pipeline' || held.has('approve');
    if (permitted && approval) permitted = (await permissionsOfUser(approval.approverId, ctx.incidentId)).has(spec.effect === 'READ_ONLY' ? 'approve' : spec.permission);
    if (spec.effect === 'MUTATING' && ctx.caller.kind === 'user' && approval) permitted = permitted && held.has(spec.permission);
    if (permitted && spec.alsoAuthorizedOn && ctx.caller.kind === 'user') {
      const people = [...new Set([ctx.caller.userId, ...(approval ? [approval.approverId] : [])])];
      for (const scope of await spec.alsoAuthorizedOn(args)) {
        for (const person of people) {
          if (!(await permissionsOfUser(person, scope)).has(spec.permission)) {
            return deny(tool, spec, ctx, ErrorCode.ToolDenied, `${person} may not ${spec.permission} on ${scope.incidentId ?? `service ${scope.service ?? '?'}`}, which this action also changes`, argsHash);
          }
        }
      }
    }

    const cacheKey = `${spec.name}:${await scopeOf(ctx)}:${argsHash}`;
    const gate: GateInput = {
      effect: spec.effect,
      permitted,
      approval: forged ? 'forged' : approval ? 'recorded' : 'none',
      breaker: !spec.selfPaced && (spec.effect === 'READ_ONLY' ? breakers.isOpen(spec.upstream) : breakers.degraded()) ? 'open' : 'closed',
      cached: spec.effect === 'READ_ONLY' && spec.cacheable === true && cache.get(cacheKey) !== undefined,
      capped: capped.length > 0,
    };
    const decision = decide(gate);
    switch (decision.action) {
      case 'deny':
        return deny(tool, spec, ctx, decision.code, decision.reason, argsHash);
      case 'propose':
        await record({ tool, effect: spec.effect, decision: 'proposed', reason: decision.reason, argsHash, ctx, extra: capped.length ? { capped } : undefined });
        return { status: 'proposed', requires: decision.requires, reason: decision.reason, argsHash, capped };
      case 'serve-cache': {
        const value = cache.get(cacheKey)?.value;
        await record({ tool, effect: spec.effect, decision: 'cached', reason: decision.reason, argsHash, ctx, extra: { fromCache: true } });
        return { status: 'executed', value, fromCache: true, argsHash, capped };
      }
      case 'run':
        return execute({ spec, args, argsHash, capped, ctx, approval, approverId: approval?.approverId });
    }
  }

  const stepUp = createStepUpFlow({ registry, challenges: options.challenges, breakers, permissionsOf, permissionsOfUser, record, deny, execute });
  return {
    registry,
    invoke,
    requestStepUp: stepUp.requestStepUp,
    confirmStepUp: stepUp.confirmStepUp,
    permissionsOf,
    recordRefusal: (tool, ctx, code, reason) => deny(tool, registry.get(tool), ctx, code, reason, 'n/a'),
    degradedNotice: () => breakers.notice(),
    whenReconciled: async () => {
      while (reconciling.size > 0) await Promise.all([...reconciling]);
    },
  };
}
