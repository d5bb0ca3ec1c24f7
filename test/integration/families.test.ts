import { afterEach, describe, expect, it } from 'vitest';
import { pollOnce } from '../../jobs/poll.js';
import { createWorld, type World } from '../support/medic-world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const line = (service: string, message: string, i: number) =>
  JSON.stringify({ time: new Date(Date.parse('2026-11-30T09:00:00Z') + i * 1000).toISOString(), level: 'ERROR', service, message, requestId: `r-${service}-${i}` });

describe('message families across polls and restarts', () => {
  it('records the mined family on each new incident, with ids that survive a restart', async () => {
    world = await createWorld({ llm: 'offline' });
    const w = world;
    const users = ['alice', 'bob', 'carol'];
    await w.writeLogs('a.jsonl', users.map((user, i) => line(`svc-${user}`, `lock wait timeout for user ${user} on table orders`, i)).join('\n') + '\n');
    const first = await w.startMedic();
    await pollOnce(first.poll);
    const a = (await first.store.list()).find((i) => i.service === 'svc-alice');
    expect(a?.family?.groupId).toMatch(/\w+/);
    expect(a?.family?.template).toBe('lock wait timeout for user alice on table orders');

    // A fresh process (new Medic on the same Redis) sees the same family under the same id.
    const second = await w.startMedic();
    await w.writeLogs('b.jsonl', [line('billing', 'lock wait timeout for user dave on table orders', 5), line('search', 'disk quota exceeded for tenant acme', 6)].join('\n') + '\n');
    await pollOnce(second.poll);
    const byService = Object.fromEntries((await second.store.list()).map((i) => [i.service, i.family]));
    // The miner generalized the user name after three of them; a fourth user joins the first family's id.
    expect(byService.billing).toEqual({ groupId: a?.family?.groupId, template: 'lock wait timeout for user <*> on table orders' });
    expect(byService.search?.groupId).not.toBe(a?.family?.groupId);
    // Different services stay different incidents: the family links them, the fingerprint does not merge them.
    expect(Object.keys(byService).sort()).toEqual(['billing', 'search', 'svc-alice', 'svc-bob', 'svc-carol']);
    expect(await w.redis.exists(`${w.prefix}templates:snapshot`)).toBe(1);
  }, 60_000);
});
