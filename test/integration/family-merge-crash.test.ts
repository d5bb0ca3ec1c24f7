import { afterEach, describe, expect, it } from 'vitest';
import { exited } from '../support/crash-drill.js';
import { createWorld, type World } from '../support/medic-world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const line = (user: string, i: number) =>
  JSON.stringify({ time: new Date(Date.parse('2026-11-30T09:00:00Z') + i * 1000).toISOString(), level: 'ERROR', service: 'orders', message: `lock wait timeout for user ${user} on table orders`, requestId: `r-${i}` });

describe('a worker killed in the middle of a family merge', () => {
  it('loses no event and duplicates none after the restart, and audits the merge once', async () => {
    world = await createWorld({ llm: 'offline' });
    const w = world;
    const users = ['alice', 'alice', 'bob', 'bob', 'bob', 'carol'];
    await w.writeLogs('orders.jsonl', users.map((user, i) => line(user, i)).join('\n') + '\n');
    // Killed once the merge is in Redis but before the merged records, the miner snapshot and the checkpoint are written.
    const first = w.spawnWorker({ MEDIC_CRASH_AFTER: 'family-merge' });
    expect(await exited(first)).toBe('SIGKILL');
    // Killed mid-merge: the counts moved, the record change is still journaled.
    expect(await w.redis.hlen(`${w.prefix}merges:pending`)).toBe(1);
    const operator = await w.startMedic();
    // The killed poller's lock is a lease: it frees itself within seconds, nobody deletes it.
    w.spawnWorker();
    // The merge's two records are written one after the other: wait until both are.
    const [merged, survivor] = await w.waitFor(async () => {
      const all = await operator.store.list();
      const from = all.find((i) => i.mergedInto);
      const into = from && all.find((i) => i.id === from.mergedInto && i.mergedFrom.includes(from.id));
      return from && into ? [from, into] as const : undefined;
    }, 'both merged records after the restart');
    expect(survivor.mergedFrom).toEqual([merged.id]);
    expect(merged.state).toBe('closed');
    // Every one of the six events counted exactly once, in the one open incident.
    expect((await operator.store.stats(survivor.id))?.count).toBe(6);
    expect((await operator.store.list()).filter((i) => i.state !== 'closed').map((i) => i.id)).toEqual([survivor.id]);
    await w.waitFor(async () => (await w.redis.get(`${w.prefix}templates:snapshot`)) !== null, 'the restarted poll to finish');
    const audit = await operator.audit.list({ count: 1000 });
    expect(audit.filter((a) => a.action === 'incident.merged')).toHaveLength(1);
    expect(audit.filter((a) => a.action === 'incident.absorbed')).toHaveLength(1);
    expect(await w.redis.hlen(`${w.prefix}merges:pending`)).toBe(0);
  }, 90_000);
});
