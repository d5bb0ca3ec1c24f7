/**
 * The effect gate's decision table: every effect class × permission held or not × approval state
 * × breaker state, first on the pure `decide`, then end to end through the gateway with real
 * Redis, counting what actually ran and what the audit recorded.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decide, type GateInput } from '../../src/gateway/effect-gate/decide.js';
import type { EffectClass } from '../../src/gateway/registry/effect.js';
import type { InvokeResult } from '../../src/gateway/invoke-result.js';
import { createTestRedis } from '../support/redis.js';
import { APPROVER, ELEVATED, STRANGER, buildCountingAutomation, buildHarness, exampleArgs, rateLimited } from './support.js';

type Approval = GateInput['approval'];
type Breaker = GateInput['breaker'];
type Expected = 'run' | 'propose' | 'deny:ERR_TOOL_DENIED' | 'deny:ERR_UPSTREAM_UNAVAILABLE';

const D = 'deny:ERR_TOOL_DENIED';
const U = 'deny:ERR_UPSTREAM_UNAVAILABLE';

// [effect, permission held, approval, breaker] → outcome. Written out in full on purpose.
const TABLE: [EffectClass, boolean, Approval, Breaker, Expected][] = [
  ['READ_ONLY', true, 'none', 'closed', 'run'], ['READ_ONLY', true, 'none', 'open', U],
  ['READ_ONLY', true, 'recorded', 'closed', 'run'], ['READ_ONLY', true, 'recorded', 'open', U],
  ['READ_ONLY', true, 'forged', 'closed', D], ['READ_ONLY', true, 'forged', 'open', D],
  ['READ_ONLY', true, 'step-up', 'closed', 'run'], ['READ_ONLY', true, 'step-up', 'open', U],
  ['READ_ONLY', false, 'none', 'closed', D], ['READ_ONLY', false, 'none', 'open', D],
  ['READ_ONLY', false, 'recorded', 'closed', D], ['READ_ONLY', false, 'recorded', 'open', D],
  ['READ_ONLY', false, 'forged', 'closed', D], ['READ_ONLY', false, 'forged', 'open', D],
  ['READ_ONLY', false, 'step-up', 'closed', D], ['READ_ONLY', false, 'step-up', 'open', D],
  ['MUTATING', true, 'none', 'closed', 'propose'], ['MUTATING', true, 'none', 'open', U],
  ['MUTATING', true, 'recorded', 'closed', 'run'], ['MUTATING', true, 'recorded', 'open', U],
  ['MUTATING', true, 'forged', 'closed', D], ['MUTATING', true, 'forged', 'open', D],
  ['MUTATING', true, 'step-up', 'closed', 'run'], ['MUTATING', true, 'step-up', 'open', U],
  ['MUTATING', false, 'none', 'closed', D], ['MUTATING', false, 'none', 'open', D],
  ['MUTATING', false, 'recorded', 'closed', D], ['MUTATING', false, 'recorded', 'open', D],
  ['MUTATING', false, 'forged', 'closed', D], ['MUTATING', false, 'forged', 'open', D],
  ['MUTATING', false, 'step-up', 'closed', D], ['MUTATING', false, 'step-up', 'open', D],
  ['DESTRUCTIVE', true, 'none', 'closed', 'propose'], ['DESTRUCTIVE', true, 'none', 'open', U],
  ['DESTRUCTIVE', true, 'recorded', 'closed', 'propose'], ['DESTRUCTIVE', true, 'recorded', 'open', U],
  ['DESTRUCTIVE', true, 'forged', 'closed', D], ['DESTRUCTIVE', true, 'forged', 'open', D],
  ['DESTRUCTIVE', true, 'step-up', 'closed', 'run'], ['DESTRUCTIVE', true, 'step-up', 'open', U],
  ['DESTRUCTIVE', false, 'none', 'closed', D], ['DESTRUCTIVE', false, 'none', 'open', D],
  ['DESTRUCTIVE', false, 'recorded', 'closed', D], ['DESTRUCTIVE', false, 'recorded', 'open', D],
  ['DESTRUCTIVE', false, 'forged', 'closed', D], ['DESTRUCTIVE', false, 'forged', 'open', D],
  ['DESTRUCTIVE', false, 'step-up', 'closed', D], ['DESTRUCTIVE', false, 'step-up', 'open', D],
];

function outcomeOf(decision: ReturnType<typeof decide>): string {
  return decision.action === 'deny' ? `deny:${decision.code}` : decision.action;
}

describe('decide (pure)', () => {
  it('covers the whole product of effect × permission × approval × breaker', () => {
    expect(TABLE).toHaveLength(3 * 2 * 4 * 2);
    expect(new Set(TABLE.map((row) => row.slice(0, 4).join())).size).toBe(TABLE.length);
  });

  it.each(TABLE)('%s, permitted=%s, approval=%s, breaker=%s → %s', (effect, permitted, approval, breaker, expected) => {
    expect(outcomeOf(decide({ effect, permitted, approval, breaker, cached: false, capped: false }))).toBe(expected);
  });

  it('serves a degraded read from the cache only when one is there, and never a write', () => {
    expect(decide({ effect: 'READ_ONLY', permitted: true, approval: 'none', breaker: 'open', cached: true, capped: false }).action).toBe('serve-cache');
    expect(decide({ effect: 'MUTATING', permitted: true, approval: 'recorded', breaker: 'open', cached: true, capped: false }).action).toBe('deny');
  });

  it('holds a capped read for a human, and runs it once approved', () => {
    expect(decide({ effect: 'READ_ONLY', permitted: true, approval: 'none', breaker: 'closed', cached: false, capped: true })).toMatchObject({ action: 'propose', requires: 'approval' });
    expect(decide({ effect: 'READ_ONLY', permitted: true, approval: 'recorded', breaker: 'closed', cached: false, capped: true }).action).toBe('run');
  });
});

const TOOL: Record<EffectClass, string> = { READ_ONLY: 'diagnostics.pod-logs', MUTATING: 'deploy.scale', DESTRUCTIVE: 'db.failover' };

describe('the gateway end to end', () => {
  let env: Awaited<ReturnType<typeof createTestRedis>>;
  beforeEach(async () => (env = await createTestRedis()));
  afterEach(async () => env.cleanup());

  /** Drives one row; returns the result and how many gateway calls it took. */
  async function drive(effect: EffectClass, held: boolean, approval: Approval, breaker: Breaker) {
    const automation = buildCountingAutomation();
    const h = buildHarness(env.redis, `${env.prefix}${effect}-${held}-${approval}-${breaker}:`, { deps: { automation: automation.client } });
    const tool = TOOL[effect];
    const args = exampleArgs(tool);
    const incidentId = 'inc-1';
    // Permission held: an approver (MUTATING) or an elevated confirmer (DESTRUCTIVE); otherwise a stranger.
    const userId = held ? (effect === 'DESTRUCTIVE' ? ELEVATED : APPROVER) : STRANGER;
    const ctx = { caller: { kind: 'user' as const, userId }, incidentId, traceId: 't-1' };
    let calls = 0;
    let approvalId: string | undefined;
    let token: string | undefined;
    if (approval === 'recorded') {
      const spec = h.gateway.registry.get(tool)!;
      const normalized = h.gateway.registry.normalize(tool, args);
      if (!normalized.ok) throw new Error(normalized.reason);
      approvalId = (await h.approvals.recordApproval({ tool, argsHash: h.gateway.registry.approvalHash(spec, normalized.args, ctx), incidentId, approverId: effect === 'DESTRUCTIVE' ? ELEVATED : APPROVER })).approvalId;
    }
    if (approval === 'forged') approvalId = 'approved-by-the-button-value';
    if (approval === 'step-up' && effect === 'DESTRUCTIVE') {
      calls += 1;
      const requested = await h.gateway.requestStepUp({ tool, args }, { ...ctx, caller: { kind: 'user', userId: APPROVER } });
      if (requested.status !== 'challenge') throw new Error(`step-up request refused: ${requested.reason}`);
      token = requested.challenge.token;
    }
    if (breaker === 'open') h.breakers.recordFailure('automation', rateLimited());

    let result: InvokeResult | Awaited<ReturnType<typeof h.gateway.requestStepUp>>;
    calls += 1;
    if (approval === 'step-up' && effect === 'DESTRUCTIVE') {
      result = await h.gateway.confirmStepUp({ token: token!, typedTarget: 'orders-db', incidentId }, ctx);
    } else if (approval === 'step-up') {
      result = await h.gateway.requestStepUp({ tool, args }, ctx);
    } else {
      result = await h.gateway.invoke({ tool, args }, { ...ctx, approvalId });
    }
    return { result, calls, runs: automation.runs.length, audited: await h.audit.length() };
  }

  // A step-up for a READ_ONLY or MUTATING tool is itself refused: the flow exists for DESTRUCTIVE only.
  const expectedEndToEnd = (effect: EffectClass, held: boolean, approval: Approval, breaker: Breaker, pure: Expected): Expected =>
    approval === 'step-up' && effect !== 'DESTRUCTIVE' ? D : held || !(approval === 'step-up') ? pure : D;

  it.each(TABLE)('%s, held=%s, approval=%s, breaker=%s', async (effect, held, approval, breaker, pure) => {
    const { result, calls, runs, audited } = await drive(effect, held, approval, breaker);
    const expected = expectedEndToEnd(effect, held, approval, breaker, pure);
    const got = result.status === 'executed' ? 'run' : result.status === 'proposed' ? 'propose' : result.status === 'denied' ? `deny:${result.code}` : `other:${result.status}`;
    expect(got).toBe(expected);
    // Only a run reaches the automation, and every gateway call left exactly one audit record.
    expect(runs).toBe(expected === 'run' ? 1 : 0);
    expect(audited).toBe(calls);
  });
});
