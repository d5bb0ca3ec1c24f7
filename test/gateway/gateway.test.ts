import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runApprovedAction } from '../../src/gateway/actions/action-use-cases.js';
import { recordFixApproval } from '../../src/gateway/effect-gate/fix-approval.js';
import { createGatedPorts } from '../../src/gateway/gated-ports.js';
import type { ToolIntent } from '../../src/gateway/registry/effect.js';
import { createTestRedis } from '../support/redis.js';
import { APPROVER, STRANGER, buildCountingAutomation, buildFakePorts, buildHarness, buildProposal, exampleArgs, rateLimited } from './support.js';

const incidentId = 'inc-1';
const asUser = (userId: string) => ({ caller: { kind: 'user' as const, userId }, incidentId, traceId: 'trace-1' });
const pipeline = { caller: { kind: 'pipeline' as const }, incidentId, traceId: 'trace-1' };

describe('the gateway', () => {
  let env: Awaited<ReturnType<typeof createTestRedis>>;
  beforeEach(async () => (env = await createTestRedis()));
  afterEach(async () => env.cleanup());

  it('refuses a forged button value claiming approval, and runs only the stored intent once approved', async () => {
    const automation = buildCountingAutomation();
    const h = buildHarness(env.redis, env.prefix, { deps: { automation: automation.client } });
    const proposed: ToolIntent[] = [{ tool: 'deploy.scale', args: exampleArgs('deploy.scale') }];
    const normalized = h.gateway.registry.normalize('deploy.scale', proposed[0]!.args);
    if (!normalized.ok) throw new Error('example must be valid');
    const base = { gateway: h.gateway, approvals: h.approvals, proposed, tool: 'deploy.scale', incidentId, userId: APPROVER };

    // A button value naming an intent that was never proposed (here: 10 replicas instead of 4).
    const forgedHash = h.gateway.registry.normalize('deploy.scale', { ...exampleArgs('deploy.scale'), replicas: 10 });
    expect(await runApprovedAction({ ...base, argsHash: forgedHash.argsHash })).toMatchObject({ status: 'denied', code: 'ERR_STALE_APPROVAL' });
    // An approval reference that matches nothing recorded.
    expect(await h.gateway.invoke(proposed[0]!, { ...asUser(APPROVER), approvalId: 'approved' })).toMatchObject({ status: 'denied', code: 'ERR_TOOL_DENIED' });
    // `approved: true` riding along in the arguments.
    expect(await h.gateway.invoke({ tool: 'deploy.scale', args: { ...exampleArgs('deploy.scale'), approved: true } }, asUser(APPROVER))).toMatchObject({ status: 'denied', code: 'ERR_VALIDATION_FAILED' });
    // A click by someone who is not an approver records no approval.
    expect(await runApprovedAction({ ...base, userId: STRANGER, argsHash: normalized.argsHash })).toMatchObject({ status: 'denied', code: 'ERR_TOOL_DENIED' });
    expect(automation.runs).toHaveLength(0);

    expect(await runApprovedAction({ ...base, argsHash: normalized.argsHash })).toMatchObject({ status: 'executed' });
    expect(automation.runs).toEqual([{ action: 'deploy.scale', args: { service: 'orders-api', namespace: 'prod', replicas: 4 } }]);
    // The approval was spent: the same intent again is only a proposal.
    expect(await h.gateway.invoke(proposed[0]!, pipeline)).toMatchObject({ status: 'proposed', requires: 'approval' });
    expect(await h.audit.length()).toBe(6);
  });

  it('binds an approval to the exact arguments and re-resolves the approver at use', async () => {
    const automation = buildCountingAutomation();
    const h = buildHarness(env.redis, env.prefix, { deps: { automation: automation.client } });
    const spec = h.gateway.registry.get('deploy.scale')!;
    const approved = { ...exampleArgs('deploy.scale'), replicas: 3 };
    await h.approvals.recordApproval({ tool: 'deploy.scale', argsHash: h.gateway.registry.approvalHash(spec, approved, pipeline), incidentId, approverId: APPROVER });
    expect(await h.gateway.invoke({ tool: 'deploy.scale', args: { ...approved, replicas: 5 } }, pipeline)).toMatchObject({ status: 'proposed' });
    // Approved by someone who is (no longer) an approver: denied, whatever the record says.
    await h.approvals.recordApproval({ tool: 'deploy.scale', argsHash: h.gateway.registry.approvalHash(spec, { ...approved, replicas: 2 }, pipeline), incidentId, approverId: STRANGER });
    expect(await h.gateway.invoke({ tool: 'deploy.scale', args: { ...approved, replicas: 2 } }, pipeline)).toMatchObject({ status: 'denied', code: 'ERR_TOOL_DENIED' });
    expect(await h.gateway.invoke({ tool: 'deploy.scale', args: approved }, pipeline)).toMatchObject({ status: 'executed' });
    expect(automation.runs).toHaveLength(1);
  });

  it('publishes an approved fix and opens its PR through gated ports, and nothing else', async () => {
    const ports = buildFakePorts();
    const h = buildHarness(env.redis, env.prefix, { deps: ports });
    const gated = createGatedPorts(h.gateway, ports, pipeline);
    const proposal = buildProposal();
    const input = { incidentId, branch: 'fix/inc-1-20250301100000', proposal, message: 'Fix orders' };

    await expect(gated.publisher!.publish(input)).rejects.toMatchObject({ code: 'ERR_TOOL_DENIED' });
    await expect(gated.pullRequests!.open({ branch: input.branch, title: 't', body: 'b' })).rejects.toMatchObject({ code: 'ERR_TOOL_DENIED' });
    expect(ports.calls).toEqual({});

    await recordFixApproval(h.approvals, { incidentId, proposal, approverId: APPROVER });
    // Content that does not match the approved hash is not the approved fix.
    const tampered = { ...input, proposal: { ...proposal, after: 'rm -rf /\n' } };
    await expect(gated.publisher!.publish(tampered)).rejects.toMatchObject({ code: 'ERR_FIX_REFUSED' });
    expect(ports.calls.publish).toBeUndefined();

    expect(await gated.publisher!.publish(input)).toMatchObject({ pushStatus: 'pushed' });
    await expect(gated.pullRequests!.open({ branch: 'fix/inc-1-other', title: 't', body: 'b' })).rejects.toMatchObject({ code: 'ERR_TOOL_DENIED' });
    expect(await gated.pullRequests!.open({ branch: input.branch, title: 't', body: 'b' })).toEqual({ number: 7, url: 'http://127.0.0.1/pr/7' });
    expect(ports.calls).toEqual({ publish: 1, openPr: 1 });
    expect(await h.audit.length()).toBe(6);
    const outcomes = (await h.audit.list({ incidentId })).map((e) => `${String(e.details?.tool)}:${e.outcome}`);
    expect(outcomes).toEqual(['git.publish-fix:denied', 'github.open-pr:denied', 'git.publish-fix:failed', 'git.publish-fix:allowed', 'github.open-pr:denied', 'github.open-pr:allowed']);
  });

  it('degrades on a rate limit: writes halt, reads come from a recent cache, the operator is told', async () => {
    const automation = buildCountingAutomation();
    const h = buildHarness(env.redis, env.prefix, { deps: { automation: automation.client } });
    const diag = { tool: 'diagnostics.pod-logs', args: exampleArgs('diagnostics.pod-logs') };
    expect(await h.gateway.invoke(diag, pipeline)).toMatchObject({ status: 'executed', fromCache: false });
    expect(h.gateway.degradedNotice()).toBeUndefined();

    automation.failWith(rateLimited());
    expect(await h.gateway.invoke({ ...diag, args: { ...diag.args, lines: 50 } }, pipeline)).toMatchObject({ status: 'failed' });
    expect(h.gateway.degradedNotice()).toMatch(/rate-limited — degraded to read-only diagnostics/);

    expect(await h.gateway.invoke(diag, pipeline)).toMatchObject({ status: 'executed', fromCache: true });
    expect(await h.gateway.invoke({ ...diag, args: { ...diag.args, lines: 60 } }, pipeline)).toMatchObject({ status: 'denied', code: 'ERR_UPSTREAM_UNAVAILABLE' });
    const spec = h.gateway.registry.get('deploy.scale')!;
    const scale = exampleArgs('deploy.scale');
    await h.approvals.recordApproval({ tool: 'deploy.scale', argsHash: h.gateway.registry.approvalHash(spec, scale, pipeline), incidentId, approverId: APPROVER });
    expect(await h.gateway.invoke({ tool: 'deploy.scale', args: scale }, pipeline)).toMatchObject({ status: 'denied', code: 'ERR_UPSTREAM_UNAVAILABLE' });
    expect(automation.runs).toHaveLength(1);

    // After the cooldown a probe is let through and success closes the breaker.
    h.clock.now += 30_001;
    expect(await h.gateway.invoke({ tool: 'deploy.scale', args: scale }, pipeline)).toMatchObject({ status: 'executed' });
    expect(h.gateway.degradedNotice()).toBeUndefined();
    const audit = await h.audit.list();
    expect(audit.map((e) => e.details?.decision)).toEqual(['executed', 'failed', 'cached', 'denied', 'denied', 'executed']);
  });

  it('allows one mutation in flight per target', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    const h = buildHarness(env.redis, env.prefix, { deps: { automation: { run: async () => (runs++, await gate, { ok: true }) } } });
    const spec = h.gateway.registry.get('deploy.scale')!;
    const record = (replicas: number) =>
      h.approvals.recordApproval({ tool: 'deploy.scale', argsHash: h.gateway.registry.approvalHash(spec, { ...exampleArgs('deploy.scale'), replicas }, pipeline), incidentId, approverId: APPROVER });
    await record(4);
    await record(6);
    const first = h.gateway.invoke({ tool: 'deploy.scale', args: { ...exampleArgs('deploy.scale'), replicas: 4 } }, pipeline);
    while (runs === 0) await new Promise((resolve) => setImmediate(resolve));
    const second = await h.gateway.invoke({ tool: 'deploy.scale', args: { ...exampleArgs('deploy.scale'), replicas: 6 } }, pipeline);
    expect(second).toMatchObject({ status: 'denied', code: 'ERR_CONFLICT' });
    release();
    expect(await first).toMatchObject({ status: 'executed' });
    expect(runs).toBe(1);
  });

  it('records a read that times out as outcome unknown, never as done', async () => {
    const h = buildHarness(env.redis, env.prefix, { deps: { automation: { run: () => new Promise(() => undefined) } }, readTimeoutMs: 20 });
    const result = await h.gateway.invoke({ tool: 'diagnostics.pod-logs', args: exampleArgs('diagnostics.pod-logs') }, pipeline);
    expect(result).toMatchObject({ status: 'failed', code: 'ERR_UPSTREAM_UNAVAILABLE', outcomeUnknown: true });
    expect(await h.audit.list()).toMatchObject([{ outcome: 'unknown', details: { decision: 'unknown' } }]);
  });

  it('withholds the result when the audit record cannot be written', async () => {
    const ports = buildFakePorts();
    const failing = { append: async () => Promise.reject(new Error('redis down')), list: async () => [], length: async () => 0 };
    const h = buildHarness(env.redis, env.prefix, { deps: ports, audit: failing });
    await expect(h.gateway.invoke({ tool: 'code.list-files', args: {} }, pipeline)).rejects.toMatchObject({ code: 'ERR_INTERNAL' });
  });

  it('writes exactly one audit record per gateway call, whatever the outcome', async () => {
    const ports = buildFakePorts();
    const automation = buildCountingAutomation();
    const h = buildHarness(env.redis, env.prefix, { deps: { ...ports, automation: automation.client } });
    const intents: ToolIntent[] = [
      { tool: 'code.read-file', args: { path: 'src/a.ts' } },
      { tool: 'code.read-file', args: { path: '../etc/passwd' } },
      { tool: 'logs.window', args: exampleArgs('logs.window') },
      { tool: 'nope', args: {} },
      { tool: 'deploy.scale', args: exampleArgs('deploy.scale') },
      { tool: 'db.failover', args: exampleArgs('db.failover') },
      { tool: 'git.sync', args: {} },
    ];
    let calls = 0;
    for (const ctx of [pipeline, asUser(APPROVER), asUser(STRANGER)]) {
      for (const intent of intents) {
        calls += 1;
        await h.gateway.invoke(intent, ctx);
      }
    }
    expect(await h.audit.length()).toBe(calls);
    expect(await h.audit.length(incidentId)).toBe(calls);
    expect(automation.runs).toHaveLength(0);
  });
});
