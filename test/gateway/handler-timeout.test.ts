/**
 * A handler that outlives its deadline may still push or fire its webhook: the call is audited as
 * outcome unknown, its write lock stays held, and a reconciling record follows when it settles.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AutomationClient } from '../../src/gateway/actions/automation-client.js';
import { createTestRedis } from '../support/redis.js';
import { exampleArgs, buildHarness, type Harness } from './support.js';

const incidentId = 'inc-slow';
const pipeline = { caller: { kind: 'pipeline' as const }, incidentId };

/** An automation endpoint that answers only when the test lets it, whatever the deadline. */
function buildSlowAutomation() {
  const runs: string[] = [];
  let finish: (outcome: 'ok' | Error) => void = () => undefined;
  const client: AutomationClient = {
    run: (request) => new Promise((resolve, reject) => {
      runs.push(request.action);
      finish = (outcome) => (outcome === 'ok' ? resolve({ ok: true }) : reject(outcome));
    }),
  };
  return { client, runs, finish: (outcome: 'ok' | Error) => finish(outcome) };
}

describe('a handler past its deadline', () => {
  let env: Awaited<ReturnType<typeof createTestRedis>>;
  let h: Harness;
  let automation: ReturnType<typeof buildSlowAutomation>;
  const args = exampleArgs('deploy.scale');

  beforeEach(async () => {
    env = await createTestRedis();
    automation = buildSlowAutomation();
    h = buildHarness(env.redis, env.prefix, { deps: { automation: automation.client }, writeTimeoutMs: 50 });
    const spec = h.gateway.registry.get('deploy.scale')!;
    await h.approvals.recordApproval({ tool: 'deploy.scale', argsHash: h.gateway.registry.approvalHash(spec, args, pipeline), incidentId, approverId: 'U-APPROVER' });
  });
  afterEach(async () => env.cleanup());

  it.each([
    ['completes late', 'ok' as const, 'allowed'],
    ['fails late', new Error('webhook answered 502'), 'failed'],
  ])('is audited outcome unknown, holds its lock, and is reconciled when it %s', async (_label, late, reconciled) => {
    const result = await h.gateway.invoke({ tool: 'deploy.scale', args }, pipeline);
    expect(result).toMatchObject({ status: 'failed', outcomeUnknown: true, reason: expect.stringContaining('outcome unknown') });
    const first = await h.audit.list({ incidentId });
    expect(first.map((a) => [a.action, a.outcome])).toEqual([['gateway.tool-call', 'unknown']]);

    // A retry while the first call may still land is refused by the lock, not run twice.
    expect(await h.gateway.invoke({ tool: 'deploy.scale', args }, pipeline)).toMatchObject({ status: 'denied', code: 'ERR_CONFLICT' });
    expect(automation.runs).toEqual(['deploy.scale']);

    automation.finish(late);
    await h.gateway.whenReconciled();
    const trail = (await h.audit.list({ incidentId })).filter((a) => a.details?.tool === 'deploy.scale');
    expect(trail.map((a) => [a.action, a.outcome])).toEqual(expect.arrayContaining([['gateway.tool-reconciled', reconciled]]));
    expect(trail.some((a) => a.outcome === 'failed' && a.action === 'gateway.tool-call')).toBe(false);
  });
});
