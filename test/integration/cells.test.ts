import { join } from 'node:path';
import type { Cluster } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisCardDeliveryState } from '../../src/adapters/redis/card-delivery-state.js';
import { cellOfService, cellPrefixes } from '../../src/domain/cells.js';
import type { Incident } from '../../src/domain/incident.js';
import { fixBranches } from '../support/git-remote.js';
import { APPROVER, awaitFixEnd, cardsDelivered, cellsOf, checkoutErrorLines, createWorld, type World } from '../support/medic-world.js';
import { clusterWorldRedis, startRedisCluster, type TestRedisCluster } from '../support/redis-cluster.js';

const CELLS = 3;
let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** Every key of the world, by the cell prefix it starts with. */
async function keysByCell(w: World, prefixes: string[], nodes: { scan: World['redis']['scan'] }[]): Promise<number[]> {
  const counts = prefixes.map(() => 0);
  for (const node of nodes) {
    for (const [n, prefix] of prefixes.entries()) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix.replace(/[{}]/g, '\\$&')}*`, 'COUNT', 1000);
        cursor = next;
        counts[n]! += keys.length;
      } while (cursor !== '0');
    }
  }
  return counts;
}

async function cellHolding(w: World, prefixes: string[], id: string): Promise<number[]> {
  const found = await Promise.all(prefixes.map((prefix) => w.redis.exists(`${prefix}incident:${id}`)));
  return found.flatMap((n, cell) => (n > 0 ? [cell] : []));
}

describe('Medic with its state in cells (MEDIC_REDIS_CELLS)', () => {
  it('keeps a service in its own cell, and the surfaces reach it there: a click answered by cell 0 approves, the cell fixes', async () => {
    world = await createWorld({ llm: 'scripted', cells: CELLS });
    const w = world;
    const prefixes = cellPrefixes(w.prefix, CELLS);
    const shopCell = cellOfService('shop', CELLS);
    expect(shopCell).not.toBe(0);
    await w.writeLogs('shop.jsonl', checkoutErrorLines(3));
    const medic = await w.startMedic();
    await medic.startWorkers();

    const waiting = await w.waitFor(async () => (await medic.store.list({ states: ['awaiting_approval'] }))[0], 'a proposal', 60_000);
    expect(await cellHolding(w, prefixes, waiting.id)).toEqual([shopCell]);
    // One poll read the log; the service's events went to its cell alone.
    const cells = cellsOf(medic);
    expect(cells).toHaveLength(CELLS);
    for (const [n, cell] of cells.entries()) expect([n, (await cell.store.list()).length]).toEqual([n, n === shopCell ? 1 : 0]);
    expect((await medic.commands.list({ caller: { userId: APPROVER, via: 'cli' } })).map((v) => v.incident.id)).toEqual([waiting.id]);
    expect(await medic.store.stats(waiting.id)).toMatchObject({ count: 3 });
    await w.waitFor(() => cardsDelivered(medic), 'the card');

    // The web role leaves the click in cell 0's stream; cell 0's worker routes it to the shop's cell.
    await medic.followUps.enqueue({ actionId: 'medic_approve', value: JSON.stringify({ incidentId: waiting.id, proposalHash: waiting.proposal!.contentHash }), user: { id: APPROVER }, at: Date.now() });
    const fixed: Incident = await awaitFixEnd(w, medic, waiting.id);
    expect([fixed.state, fixed.error]).toEqual(['fixed', undefined]);
    expect(fixBranches(join(w.env.MEDIC_DATA_DIR!, 'remotes/sample-service.git'))).toEqual([fixed.fix!.branch]);

    // The timeline reads the cell's trail with the gateway's (kept in cell 0): both halves are there.
    const timeline = await medic.commands.timeline(waiting.id, { caller: { userId: APPROVER, via: 'cli' } });
    const actions = timeline!.trail.map((a) => a.action);
    expect(actions.filter((a) => a === 'step.publish')).toHaveLength(1);
    const own = await cells[shopCell]!.audit.list({ incidentId: waiting.id });
    expect(timeline!.trail.length).toBeGreaterThan(own.filter((a) => a.action.startsWith('step.')).length);
    expect(await medic.store.countByState()).toMatchObject({ fixed: 1 });

    // doctor's card line counts every cell's deliveries: a card Slack refuses in the shop's cell shows.
    const cardLine = async () => (await medic.checks()).find((c) => c.name === 'card delivery')!;
    expect((await cardLine()).ok).toBe(true);
    await createRedisCardDeliveryState(w.redis, prefixes[shopCell]!).recordFailure(waiting.id, { error: 'not_in_channel: invite the bot', since: new Date().toISOString(), attempts: 2 });
    expect(await cardLine()).toMatchObject({ ok: false, detail: expect.stringContaining(`oldest ${waiting.id}`) });
  }, 120_000);

  describe('on a Redis Cluster of three masters', () => {
    let cluster: TestRedisCluster;
    beforeAll(async () => void (cluster = await startRedisCluster()), 60_000);
    afterAll(async () => cluster?.stop());

    it('spreads services over the masters: each cell one slot, on a master of its own', async () => {
      world = await createWorld({ llm: 'offline', cells: CELLS, redis: clusterWorldRedis(cluster) });
      const w = world;
      const prefixes = cellPrefixes(w.prefix, CELLS);
      // 'shop' is the sample catalog's; no service declares the others (its alias 'payments' would be shop itself).
      const services = ['shop', 'search', 'inventory', 'auth', 'mail', 'ledger'];
      expect(new Set(services.map((s) => cellOfService(s, CELLS))).size).toBe(CELLS);
      for (const [i, service] of services.entries()) {
        await w.writeLogs(`${service}.jsonl`, checkoutErrorLines(2, Date.parse('2026-11-30T09:00:00.000Z') + i * 1000).replaceAll('"service":"shop"', `"service":"${service}"`));
      }
      const medic = await w.startMedic();
      await medic.startWorkers();

      const incidents = await w.waitFor(async () => {
        const all = await medic.store.list();
        return all.length === services.length && all.every((i) => i.state !== 'new' && i.state !== 'analyzing') ? all : undefined;
      }, 'one analysed incident per service', 90_000);
      await w.waitFor(() => cardsDelivered(medic), 'every card');
      expect(incidents.map((i) => i.service).sort()).toEqual([...services].sort());
      for (const incident of incidents) expect([incident.service, await cellHolding(w, prefixes, incident.id)]).toEqual([incident.service, [cellOfService(incident.service, CELLS)]]);
      for (const incident of incidents) expect(w.chatText()).toContain(incident.id);

      // Every key of a cell is in that cell's slot, and the three cells sit on three masters.
      const masters = (w.redis as Cluster).nodes('master');
      const perCell = await keysByCell(w, prefixes, masters);
      for (const count of perCell) expect(count).toBeGreaterThan(10);
      const owners = new Set<string>();
      for (const prefix of prefixes) {
        const slot = Number(await masters[0]!.call('CLUSTER', 'KEYSLOT', `${prefix}incidents`));
        for (const master of masters) {
          const [next, keys] = await master.scan('0', 'MATCH', `${prefix.replace(/[{}]/g, '\\$&')}*`, 'COUNT', 1000);
          void next;
          for (const key of keys) expect([key, Number(await master.call('CLUSTER', 'KEYSLOT', key))]).toEqual([key, slot]);
          if (keys.length > 0) owners.add(`${master.options.port}`);
        }
      }
      expect(owners.size).toBe(CELLS);
    }, 150_000);
  });
});
