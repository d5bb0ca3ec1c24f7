import { afterEach, describe, expect, it } from 'vitest';
import { exited } from '../support/crash-drill.js';
import { awaitIncident, checkoutErrorLines, createWorld, type World } from '../support/medic-world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const DIVIDE = 'RangeError: Invalid discount per item: Infinity';

describe('a worker killed between the same-failure link and the card', () => {
  // Three worker processes start in turn; on a loaded 2-core machine each start takes seconds.
  it('leaves one link, one card and one fix proposal after the restart', async () => {
    world = await createWorld({ llm: 'scripted' });
    const w = world;
    await w.writeLogs('shop.jsonl', checkoutErrorLines(1));
    const operator = await w.startMedic(); // no workers: the CLI's view of the same Redis
    const first = w.spawnWorker();
    const holder = await awaitIncident(w, operator, ['awaiting_approval']);
    first.kill('SIGKILL');
    await exited(first);

    await w.writeLogs('storefront.jsonl', `${JSON.stringify({
      time: '2026-11-30T09:20:00.000Z', level: 'ERROR', service: 'storefront', message: `order pricing failed: ${DIVIDE}`,
      stack: [DIVIDE, '    at spreadDiscount (/srv/storefront/src/checkout/discounts.ts:44:11)', '    at applyDiscounts (/srv/storefront/src/checkout/discounts.ts:58:10)', '    at priceCart (/srv/storefront/src/checkout/cart-total.ts:30:18)'].join('\n'),
    })}\n`);
    const doomed = w.spawnWorker({ MEDIC_CRASH_AFTER: 'same-failure' });
    expect(await exited(doomed)).toBe('SIGKILL');
    const linked = (await operator.store.list()).find((i) => i.service === 'storefront')!;
    expect([linked.state, linked.sameFailureAs?.incidentId, linked.card]).toEqual(['analyzing', holder.id, undefined]);

    w.spawnWorker();
    const second = await w.waitFor(async () => {
      const current = await operator.store.get(linked.id);
      return current?.state === 'reported' ? current : undefined;
    }, 'the linked incident reported', 150_000);
    expect(second.sameFailureAs?.incidentId).toBe(holder.id);
    expect(second.proposal).toBeUndefined();
    expect((await operator.store.require(holder.id)).sameFailures).toEqual([{ incidentId: second.id, service: 'storefront' }]);
    expect((await operator.audit.list({ incidentId: holder.id })).filter((a) => a.action === 'incident.same-failure')).toHaveLength(1);
    expect((await operator.audit.list({ incidentId: second.id })).filter((a) => a.action === 'step.same-failure')).toHaveLength(1);
    // Cards are the delivery job's: the linked one follows its analysis by a moment.
    const postsNow = async () => (await w.redis.lrange(`${w.prefix}console:transcript`, 0, -1)).map((r) => JSON.parse(r) as { kind: string; key: string }).filter((r) => r.kind === 'post');
    await w.waitFor(async () => (await postsNow()).length >= 2, 'both cards');
    const posts = await postsNow();
    expect(posts.map((p) => p.key).sort()).toEqual([`card:${holder.id}`, `card:${second.id}`].sort());
    expect((await operator.store.list()).filter((i) => i.proposal)).toHaveLength(1);
  }, 240_000);
});
