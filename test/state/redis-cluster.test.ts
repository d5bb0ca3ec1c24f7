import { randomUUID } from 'node:crypto';
import { Worker } from 'bullmq';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditLog } from '../../src/adapters/redis/audit-log.js';
import { createRedisCardDeliveryState } from '../../src/adapters/redis/card-delivery-state.js';
import { createRedis, deleteByPrefix, type RedisClient } from '../../src/adapters/redis/connect.js';
import { createRedisDeliveryClaims } from '../../src/adapters/redis/delivery-claims.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import { createIncidentGrouping } from '../../src/adapters/redis/open-from-overflow.js';
import { withRedisLock } from '../../src/adapters/redis/redis-lock.js';
import { createTokenBudget } from '../../src/adapters/redis/token-budget.js';
import { PIPELINE_ACTOR } from '../../src/domain/audit.js';
import { createIncident } from '../../src/domain/incident.js';
import { createApprovalStore, createTargetLocks } from '../../src/gateway/effect-gate/approval-store.js';
import { createQueues, bullPrefix } from '../../src/queue/queues.js';
import { overflowIncident } from '../../src/use-cases/ingest-events.js';
import { buildEvent } from '../support/builders.js';
import { startRedisCluster, type TestRedisCluster } from '../support/redis-cluster.js';

const NOW = Date.parse('2026-11-30T09:30:00.000Z');
let cluster: TestRedisCluster;
let redis: RedisClient;

beforeAll(async () => {
  cluster = await startRedisCluster();
  redis = createRedis({ kind: 'cluster', nodes: cluster.nodes }, 'medic-cluster-test');
}, 60_000);
afterAll(async () => {
  redis.disconnect();
  await cluster.stop();
});

const tagged = () => `{medic-test-${randomUUID().slice(0, 8)}}:`;

function input(id: string, fingerprint: string) {
  const event = buildEvent({ id, time: new Date(NOW).toISOString() });
  const [scope, family] = fingerprint.split(':') as [string, string];
  return { event, fingerprint, scope, family, candidate: createIncident({ id: `inc-${id}`, fingerprint, title: 't', event, at: event.time }) };
}

describe('Medic\'s multi-key writes on a Redis Cluster of three masters', () => {
  it('runs every script and transaction under a hash-tagged prefix: audit, budget, locks, claims, approvals, merges, overflow', async () => {
    const prefix = tagged();
    const audit = createAuditLog(redis, prefix);
    await audit.append([{ at: new Date(NOW).toISOString(), action: 'test.cluster', outcome: 'done', actor: PIPELINE_ACTOR, incidentId: 'inc-1' }]);
    expect([await audit.length(), await audit.length('inc-1')]).toEqual([1, 1]);

    const budget = createTokenBudget(redis, prefix, { perIncident: 100, perDay: 1_000 }, () => new Date(NOW));
    await budget.record('inc-1', 60);
    expect(await budget.spent('inc-1')).toEqual({ incident: 60, day: 60 });
    await expect(budget.reserve('inc-1', 50)).rejects.toThrow(/MEDIC_TOKEN_BUDGET_INCIDENT/);

    expect(await withRedisLock(redis, `${prefix}lock:data:x`, async () => 'held')).toBe('held');
    const locks = createTargetLocks(redis, prefix, { leaseMs: 5_000 });
    const lease = await locks.acquire('inc-1');
    expect(lease && (await locks.acquire('inc-1'))).toBeUndefined();
    await lease!.release();
    const again = await locks.acquire('inc-1');
    expect(again?.fence).toBeGreaterThan(lease!.fence);
    await again!.release();
    const approvals = createApprovalStore(redis, prefix, { ttlMs: 5_000 });
    const approval = await approvals.recordApproval({ tool: 'git.push', argsHash: 'h', incidentId: 'inc-1', approverId: 'U1' });
    expect(await approvals.findApproval('git.push', 'h', 'inc-1')).toEqual(approval);
    const claims = createRedisDeliveryClaims(redis, prefix);
    expect([await claims.claim('delivery-1'), await claims.claim('delivery-1')]).toEqual([true, false]);
    // The card's fenced lock, and its fence check with the ledger write (or the refusal's audit).
    const cards = createRedisCardDeliveryState(redis, prefix);
    const card = (await cards.tryLock('inc-1', 5_000))!;
    const stale = { ...card.fence, fence: card.fence.fence - 1 };
    expect(await cards.admitWrite('inc-1', card.fence, 'update', { digest: 'd' })).toBe(true);
    expect([await cards.admitWrite('inc-1', stale, 'update'), (await cards.lastSent('inc-1'))?.digest, await audit.length('inc-1')]).toEqual([false, 'd', 2]);
    await cards.unlock('inc-1', card.token);

    // An approver's Merge (MERGE_FINGERPRINT) and Open incident from the overflow (OPEN_FROM_OVERFLOW).
    const store = createIncidentStore(redis, prefix);
    const grouping = createIncidentGrouping(redis, prefix, () => new Date(NOW));
    const [a, b] = await store.ingest([input('a1', 'shop:a'), input('b1', 'shop:b')], NOW);
    // A fenced incident write (UPDATE_INCIDENT with the lock's admitted fence), and a stale one refused.
    const retitle = (title: string) => (current: Parameters<Parameters<typeof store.update>[1]>[0]) => ({ incident: { ...current, displayTitle: title }, audit: [] });
    expect((await store.update(a!.incidentId, retitle('held'), undefined, { fence: card.fence })).displayTitle).toBe('held');
    await expect(store.update(a!.incidentId, retitle('stale'), undefined, { fence: stale })).rejects.toMatchObject({ code: 'ERR_STALE_LEASE' });
    expect(await grouping.mergeIncidents({ incidentId: a!.incidentId, intoIncidentId: b!.incidentId })).toEqual({ incidentId: b!.incidentId });
    expect(await store.resolve(a!.incidentId)).toBe(b!.incidentId);
    const overflow = overflowIncident(new Date(NOW), buildEvent());
    const [, suppressed] = await store.ingest([input('c1', 'shop:c'), input('d1', 'shop:d')], NOW, { caps: { perHour: 1, perServiceHour: 0 }, overflow });
    expect(suppressed?.status).toBe('overflow');
    const opened = await grouping.openFromOverflow({ overflowIncidentId: overflow.id, fingerprint: 'shop:d' });
    expect(opened.opened).toBe(true);
    expect(await store.openIncidentOf('shop:d')).toBe(opened.incidentId);
    await deleteByPrefix(redis, prefix);
  });

  it('runs BullMQ queues and a worker under the prefix\'s hash tag', async () => {
    const prefix = tagged();
    const queues = createQueues(redis, prefix);
    const done: string[] = [];
    const worker = new Worker('analyze', async (job) => void done.push(String(job.id)), { connection: redis, prefix: bullPrefix(prefix) });
    try {
      await queues.enqueueAnalysis('inc-q1', 0);
      await queues.enqueueAnalysis('inc-q1', 0);
      await queues.enqueueAnalysis('inc-q1', 1);
      for (let i = 0; i < 100 && done.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
      expect(done.sort()).toEqual(['inc-q1', 'inc-q1-r1']);
      expect(await queues.analyze.getJobCounts('completed')).toEqual({ completed: 2 });
    } finally {
      await worker.close();
      await queues.close();
      await deleteByPrefix(redis, prefix);
    }
  });

  it('refuses an untagged prefix where keys would span slots, and deletes a prefix across every master', async () => {
    const prefix = `medic-test-${randomUUID().slice(0, 8)}:`;
    const store = createIncidentStore(redis, prefix);
    await expect(store.ingest([input('u1', 'shop:u')], NOW)).rejects.toThrow(/CROSSSLOT|same slot/);
    // Untagged keys land on every master; each master's SCAN finds its own.
    const keys = Array.from({ length: 60 }, (_, i) => `${prefix}spread:${i}`);
    for (const key of keys) await redis.set(key, '1');
    const masters = (redis as Cluster).nodes('master');
    const perMaster = await Promise.all(masters.map(async (node) => (await node.scan('0', 'MATCH', `${prefix}*`, 'COUNT', 1_000))[1].length));
    expect(perMaster.every((n) => n > 0)).toBe(true);
    expect(await deleteByPrefix(redis, prefix)).toBe(60);
    expect(await redis.exists(...keys.slice(0, 1))).toBe(0);
  });
});

describe('a fresh cluster client', () => {
  it('finds every master before deleting a prefix, even right after it was created', async () => {
    const prefix = `medic-test-${randomUUID().slice(0, 8)}:`;
    for (let i = 0; i < 30; i++) await redis.set(`${prefix}k${i}`, '1');
    const fresh = createRedis({ kind: 'cluster', nodes: cluster.nodes.slice(0, 1) }, 'medic-cluster-fresh');
    try {
      expect(await deleteByPrefix(fresh, prefix)).toBe(30);
    } finally {
      fresh.disconnect();
    }
  });
});
