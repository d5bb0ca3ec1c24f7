/** Operational actions over real signed webhooks to the loopback automation receiver. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { confirmStepUp, requestStepUp, runApprovedAction, runAutomaticDiagnostics } from '../../src/gateway/actions/action-use-cases.js';
import { createWebhookAutomation } from '../../src/gateway/actions/automation-client.js';
import { describeIntents } from '../../src/gateway/actions/describe-intents.js';
import type { ToolIntent } from '../../src/gateway/registry/effect.js';
import { startLoopbackAutomation, type LoopbackAutomation } from '../loopback/automation-receiver.js';
import { createTestRedis } from '../support/redis.js';
import { APPROVER, ELEVATED, STRANGER, buildHarness, exampleArgs, type Harness } from './support.js';

const SECRET = 'automation-secret-for-tests-0123456789';
const incidentId = 'inc-9';

describe('operational actions', () => {
  let env: Awaited<ReturnType<typeof createTestRedis>>;
  let receiver: LoopbackAutomation;
  let h: Harness;
  const proposed: ToolIntent[] = [
    { tool: 'diagnostics.pod-logs', args: exampleArgs('diagnostics.pod-logs') },
    { tool: 'deploy.scale', args: { ...exampleArgs('deploy.scale'), replicas: 25 } },
    { tool: 'db.failover', args: exampleArgs('db.failover') },
    { tool: 'deploy.scale', args: { ...exampleArgs('deploy.scale'), service: '*' } },
  ];
  beforeEach(async () => {
    env = await createTestRedis();
    receiver = await startLoopbackAutomation(SECRET);
    h = buildHarness(env.redis, env.prefix, { deps: { automation: createWebhookAutomation({ baseUrl: receiver.url, secret: SECRET }) } });
  });
  afterEach(async () => {
    await receiver.close();
    await env.cleanup();
  });

  it('describes proposed intents with their effect class and what it takes to run them', () => {
    const described = describeIntents(h.gateway.registry, proposed);
    expect(described.map((d) => [d.tool, d.effect, d.requires])).toEqual([
      ['diagnostics.pod-logs', 'READ_ONLY', 'auto'],
      ['deploy.scale', 'MUTATING', 'approval'],
      ['db.failover', 'DESTRUCTIVE', 'step-up'],
      ['deploy.scale', 'MUTATING', 'refused'],
    ]);
    expect(described[1]).toMatchObject({ args: { replicas: 10 }, capped: [{ field: 'replicas', requested: 25, cap: 10 }], target: 'orders-api' });
    expect(described[3]?.refusal?.code).toBe('ERR_TOOL_WILDCARD_PROHIBITED');
  });

  it('a denied call and a proposal-only call perform nothing', async () => {
    const pipeline = { caller: { kind: 'pipeline' as const }, incidentId };
    expect((await h.gateway.invoke(proposed[1]!, pipeline)).status).toBe('proposed');
    expect((await h.gateway.invoke(proposed[2]!, pipeline)).status).toBe('proposed');
    expect((await h.gateway.invoke(proposed[3]!, pipeline)).status).toBe('denied');
    expect((await h.gateway.invoke(proposed[0]!, { caller: { kind: 'user', userId: STRANGER }, incidentId })).status).toBe('denied');
    expect(receiver.count()).toBe(0);
    expect(await h.audit.length()).toBe(4);
  });

  it('runs READ_ONLY diagnostics automatically over a signed webhook, and nothing else', async () => {
    const results = await runAutomaticDiagnostics({ gateway: h.gateway, intents: proposed, incidentId, traceId: 'trace-9' });
    expect(results.map((r) => r.result.status)).toEqual(['executed']);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({
      path: '/hooks/pod-logs',
      signatureValid: true,
      body: { action: 'diagnostics.pod-logs', args: { service: 'orders-api', namespace: 'prod', lines: 100 }, incidentId, traceId: 'trace-9' },
    });
  });

  it('runs an approved MUTATING action with the capped value the approver saw', async () => {
    const [, scale] = describeIntents(h.gateway.registry, proposed);
    const result = await runApprovedAction({ gateway: h.gateway, approvals: h.approvals, proposed, tool: 'deploy.scale', argsHash: scale!.argsHash, incidentId, userId: APPROVER });
    expect(result.status).toBe('executed');
    expect(receiver.received.map((r) => [r.path, r.body.args.replicas, r.body.approverId])).toEqual([['/hooks/scale', 10, APPROVER]]);
    const [record] = await h.audit.list({ incidentId });
    expect(record).toMatchObject({ outcome: 'allowed', actor: { kind: 'user', id: APPROVER }, details: { tool: 'deploy.scale', effect: 'MUTATING', capped: [{ field: 'replicas' }] } });
  });

  it('runs a DESTRUCTIVE action only through the two-person step-up', async () => {
    const [, , failover] = describeIntents(h.gateway.registry, proposed);
    const base = { gateway: h.gateway, proposed, tool: 'db.failover', argsHash: failover!.argsHash, incidentId };
    const run = await runApprovedAction({ ...base, approvals: h.approvals, userId: APPROVER });
    expect(run).toMatchObject({ status: 'denied', reason: expect.stringContaining('step-up') });
    const requested = await requestStepUp({ ...base, userId: APPROVER });
    if (requested.status !== 'challenge') throw new Error(requested.reason);
    expect(receiver.count()).toBe(0);
    const confirmed = await confirmStepUp({ gateway: h.gateway, token: requested.challenge.token, typedTarget: 'orders-db', incidentId, userId: ELEVATED });
    expect(confirmed.status).toBe('executed');
    expect(receiver.received.map((r) => r.path)).toEqual(['/hooks/failover']);
  });

  it('treats a 429 from the automation as a rate limit: degraded, writes halted', async () => {
    receiver.script(429);
    const pipeline = { caller: { kind: 'pipeline' as const }, incidentId };
    expect(await h.gateway.invoke(proposed[0]!, pipeline)).toMatchObject({ status: 'failed', code: 'ERR_UPSTREAM_UNAVAILABLE' });
    expect(h.gateway.degradedNotice()).toContain('automation (rate-limited)');
    const [, scale] = describeIntents(h.gateway.registry, proposed);
    const result = await runApprovedAction({ gateway: h.gateway, approvals: h.approvals, proposed, tool: 'deploy.scale', argsHash: scale!.argsHash, incidentId, userId: APPROVER });
    expect(result).toMatchObject({ status: 'denied', code: 'ERR_UPSTREAM_UNAVAILABLE' });
    expect(receiver.count()).toBe(1);
  });
});
