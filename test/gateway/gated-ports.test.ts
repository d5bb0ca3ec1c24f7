import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGatedPorts } from '../../src/gateway/gated-ports.js';
import { createTestRedis } from '../support/redis.js';
import { buildEvent, buildFakePorts, buildHarness } from './support.js';

describe('gated ports', () => {
  let env: Awaited<ReturnType<typeof createTestRedis>>;
  beforeEach(async () => (env = await createTestRedis()));
  afterEach(async () => env.cleanup());

  it('route every port method the pipeline uses through the gateway, one audit record each', async () => {
    const ports = buildFakePorts();
    const h = buildHarness(env.redis, env.prefix, { deps: ports });
    const gated = createGatedPorts(h.gateway, ports, { caller: { kind: 'pipeline' }, incidentId: 'inc-3', traceId: 'trace-3' });
    expect(gated.logs!.name).toBe('fake-logs');
    expect(await gated.logs!.poll(undefined)).toEqual({ events: [], checkpoint: 'c1' });
    expect(await gated.logs!.window({ event: buildEvent(), beforeMs: 1_000, afterMs: 1_000, limit: 50 })).toHaveLength(1);
    expect(await gated.repo!.readFile('src/a.ts')).toBe('content of src/a.ts');
    await gated.repo!.sync();
    expect(await gated.repo!.listFiles()).toEqual(['src/a.ts']);
    expect(await gated.repo!.recentChanges(['src/a.ts'], 14, 10)).toEqual([]);
    const ref = await gated.chat!.postCard('card:inc-3', { text: 'card', blocks: [] });
    await gated.chat!.updateCard(ref, { text: 'card', blocks: [] });
    await gated.chat!.replyInThread(ref, 'reply:inc-3', { text: 'done', blocks: [] });
    await gated.chat!.postEphemeral('C1', 'U1', 'only you');
    await gated.searchDocs({ query: 'npe', limit: 3 });
    await gated.searchCode({ query: 'npe', limit: 3 });
    expect((await gated.chat!.check()).ok).toBe(true);
    expect(Object.values(ports.calls).reduce((a, b) => a + b, 0)).toBe(12);
    const audit = await h.audit.list({ incidentId: 'inc-3' });
    expect(audit).toHaveLength(12);
    expect(audit.every((e) => e.outcome === 'allowed' && e.traceId === 'trace-3' && e.actor.kind === 'pipeline')).toBe(true);
  });

  it('route the merge state and the deploy marker through the gateway where the code host has them', async () => {
    const ports = buildFakePorts();
    const seen: unknown[] = [];
    const pullRequests = {
      ...ports.pullRequests,
      mergeState: async (fix: { branch: string; pullNumber?: number }) => (seen.push(fix), { merged: true, commit: 'c0ffee1', mergedAt: '2025-03-01T10:00:00.000Z' }),
      deployment: async (...args: unknown[]) => (seen.push(args), { at: '2025-03-01T10:05:00.000Z', marker: 'release v2' }),
    };
    const h = buildHarness(env.redis, env.prefix, { deps: { ...ports, pullRequests } });
    const gated = createGatedPorts(h.gateway, { ...ports, pullRequests }, { caller: { kind: 'pipeline' }, incidentId: 'inc-3' });
    expect(await gated.pullRequests!.mergeState!({ branch: 'fix/inc-3-20250301100000', pullNumber: 7 })).toMatchObject({ merged: true, commit: 'c0ffee1' });
    expect(await gated.pullRequests!.deployment!('c0ffee1', '2025-03-01T10:00:00.000Z', 'github-release')).toEqual({ at: '2025-03-01T10:05:00.000Z', marker: 'release v2' });
    expect(seen).toEqual([{ branch: 'fix/inc-3-20250301100000', pullNumber: 7 }, ['c0ffee1', '2025-03-01T10:00:00.000Z', 'github-release', undefined]]);
    await expect(gated.pullRequests!.mergeState!({ branch: 'main' })).rejects.toMatchObject({ code: 'ERR_VALIDATION_FAILED' });
    await expect(gated.pullRequests!.deployment!('not-a-sha', '2025-03-01T10:00:00.000Z', 'github-release')).rejects.toMatchObject({ code: 'ERR_VALIDATION_FAILED' });
    expect(seen).toHaveLength(2);
    expect((await h.audit.list({ incidentId: 'inc-3' })).map((e) => e.details?.tool)).toEqual(expect.arrayContaining(['github.merge-state', 'github.deployment']));
    // A code host without them: the gated port has neither.
    const plain = createGatedPorts(h.gateway, ports, { caller: { kind: 'pipeline' } });
    expect('mergeState' in plain.pullRequests!).toBe(false);
    expect('deployment' in plain.pullRequests!).toBe(false);
  });

  it('route a deploy-marker log search through the gateway, refusing a pattern out of bounds', async () => {
    const ports = buildFakePorts();
    const asked: unknown[] = [];
    const logs = { ...ports.logs, findLine: async (...args: unknown[]) => (asked.push(args.slice(0, 3)), { at: '2025-03-01T10:05:00.000Z', line: 'deployed version 42' }) };
    const h = buildHarness(env.redis, env.prefix, { deps: { ...ports, logs } });
    const gated = createGatedPorts(h.gateway, { ...ports, logs }, { caller: { kind: 'pipeline' }, incidentId: 'inc-3' });
    expect(await gated.logs!.findLine!('orders-api', 'deployed version', '2025-03-01T10:00:00.000Z')).toEqual({ at: '2025-03-01T10:05:00.000Z', line: 'deployed version 42' });
    await expect(gated.logs!.findLine!('orders-api', 'x'.repeat(201), '2025-03-01T10:00:00.000Z')).rejects.toMatchObject({ code: 'ERR_VALIDATION_FAILED' });
    await expect(gated.logs!.findLine!('*', 'deployed', '2025-03-01T10:00:00.000Z')).rejects.toMatchObject({ code: 'ERR_TOOL_WILDCARD_PROHIBITED' });
    expect(asked).toEqual([['orders-api', 'deployed version', '2025-03-01T10:00:00.000Z']]);
    expect('findLine' in createGatedPorts(h.gateway, ports, { caller: { kind: 'pipeline' } }).logs!).toBe(false);
  });

  it('turn a refusal into a coded error before the port is reached', async () => {
    const ports = buildFakePorts();
    const h = buildHarness(env.redis, env.prefix, { deps: ports });
    const gated = createGatedPorts(h.gateway, ports, { caller: { kind: 'pipeline' }, incidentId: 'inc-3' });
    const storm = buildEvent({ correlationIds: { txn_id: '*' } });
    await expect(gated.logs!.window({ event: storm, beforeMs: 1, afterMs: 1, limit: 5 })).rejects.toMatchObject({ code: 'ERR_TOOL_WILDCARD_PROHIBITED' });
    await expect(gated.repo!.readFile('/etc/passwd')).rejects.toMatchObject({ code: 'ERR_VALIDATION_FAILED' });
    expect(ports.calls).toEqual({});
  });

  it('refuse a port that is not configured, known but not runnable', async () => {
    const ports = buildFakePorts();
    const h = buildHarness(env.redis, env.prefix, { deps: {} });
    const gated = createGatedPorts(h.gateway, ports, { caller: { kind: 'pipeline' } });
    await expect(gated.repo!.listFiles()).rejects.toMatchObject({ code: 'ERR_TOOL_DENIED', message: expect.stringContaining('not configured') });
  });
});
