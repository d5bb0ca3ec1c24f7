import { join } from 'node:path';
import type { Cluster } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixBranches, gitIn } from '../support/git-remote.js';
import { DRILL_MS, crashDrill } from '../support/crash-drill.js';
import { APPROVER, awaitFixEnd, awaitIncident, startCheckoutWorld, type World } from '../support/medic-world.js';
import { clusterWorldRedis, startRedisCluster, type TestRedisCluster } from '../support/redis-cluster.js';

let cluster: TestRedisCluster;
let world: World | undefined;
beforeAll(async () => void (cluster = await startRedisCluster()), 60_000);
afterAll(async () => cluster.stop());
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('Medic on a Redis Cluster of three masters', () => {
  it('runs the whole loop: poll, incident, analysis, card, approval, one fix branch', async () => {
    const started = await startCheckoutWorld('scripted', {}, clusterWorldRedis(cluster));
    world = started.world;
    const { world: w, medic } = started;
    expect(w.env.REDIS_CLUSTER_NODES).toBe(cluster.env);

    const waiting = await awaitIncident(w, medic, ['awaiting_approval']);
    expect(waiting.proposal?.file).toBe('src/checkout/discounts.ts');
    expect(w.chatText()).toContain('Approve');
    const approved = await medic.commands.approve({ incidentId: waiting.id, proposalHash: waiting.proposal!.contentHash, caller: { userId: APPROVER, via: 'slack' } });
    expect(approved.ok).toBe(true);
    const fixed = await awaitFixEnd(w, medic, waiting.id);
    expect([fixed.state, fixed.error]).toEqual(['fixed', undefined]);
    const remote = join(w.env.MEDIC_DATA_DIR!, 'remotes/sample-service.git');
    expect(fixBranches(remote)).toEqual([fixed.fix!.branch]);
    expect(gitIn(remote, ['rev-list', '--count', `main..${fixed.fix!.branch}`])).toBe('1');
    const trail = await medic.audit.list({ incidentId: waiting.id });
    expect(trail.filter((a) => a.action === 'step.publish')).toHaveLength(1);
    expect(await medic.store.countByState()).toMatchObject({ fixed: 1 });

    // Every key the loop wrote (records, indexes, audit, BullMQ, gateway, chat) is in one slot.
    const slots = new Map<number, number>();
    for (const node of (w.redis as Cluster).nodes('master')) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', `${w.prefix}*`, 'COUNT', 500);
        cursor = next;
        for (const key of keys) {
          const slot = Number(await node.call('CLUSTER', 'KEYSLOT', key));
          slots.set(slot, (slots.get(slot) ?? 0) + 1);
        }
      } while (cursor !== '0');
    }
    expect(slots.size).toBe(1);
    expect([...slots.values()][0]).toBeGreaterThan(20);
  }, 120_000);

  it('survives a worker killed mid-analysis: a fresh worker process on the cluster finishes with one card and one branch', async () => {
    const outcome = await crashDrill('rca', clusterWorldRedis(cluster));
    expect(outcome.killedBy).toBe('SIGKILL');
    expect(outcome.incident.state).toBe('fixed');
    expect(outcome.cards).toBe(1);
    expect(outcome.branches).toEqual([outcome.incident.fix!.branch]);
    for (const [name, count] of Object.entries(outcome.stepAudits)) expect([name, count]).toEqual([name, 1]);
  }, DRILL_MS + 10_000);
});
