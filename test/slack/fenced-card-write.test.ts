/**
 * The card write checks the delivery's lease at the resource: a deliver-card worker that paused
 * past its lease, while another worker took the card and updated it, is refused when it resumes —
 * the refusal is audited, Slack (the sandbox's Web API behind the loopback) receives nothing from
 * it, and Redis keeps the later holder's ledger.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { deliverCard } from '../../jobs/deliver-card.js';
import { createAuditLog } from '../../src/adapters/redis/audit-log.js';
import { createRedisCardDeliveryState } from '../../src/adapters/redis/card-delivery-state.js';
import { PIPELINE_ACTOR } from '../../src/domain/audit.js';
import { transition } from '../../src/domain/incident.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import { createSlackFaultWorld, type SlackFaultWorld } from '../support/slack-fault-world.js';

let world: SlackFaultWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A store whose first `stats` read waits for `release`: the worker pauses after it read the record. */
function pausingStore(store: IncidentStore) {
  let release = () => undefined as void;
  let paused = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const reached = new Promise<void>((resolve) => (paused = resolve));
  let first = true;
  const wrapped: IncidentStore = {
    ...store,
    async stats(id) {
      if (first) {
        first = false;
        paused();
        await gate;
      }
      return store.stats(id);
    },
  };
  return { store: wrapped, reached, release };
}

const updates = (w: SlackFaultWorld) => w.faults.calls.filter((c) => c.method === 'chat.update').length;

/** One posted card, then the record moves on (a new render) so a delivery has an update to make. */
async function postedCardThatMovedOn(w: SlackFaultWorld): Promise<string> {
  const [id = ''] = await w.openIncidents(1);
  await deliverCard(id, 'final', w.delivery);
  expect(w.cardsOf(id)).toHaveLength(1);
  expect(updates(w)).toBe(0);
  const at = new Date().toISOString();
  await w.store.update(id, (current) => ({ incident: { ...transition(current, 'analyzing', at), displayTitle: 'Payment gateway refused the charge (analyzing)' }, audit: [{ at, action: 'analysis.start', outcome: 'done', actor: PIPELINE_ACTOR }] }));
  return id;
}

describe('a card delivery whose worker paused past its lease', () => {
  it('is refused when it resumes after another worker took the card and wrote it: audited, nothing sent to Slack', async () => {
    world = await createSlackFaultWorld({ callsPerSecond: 50 });
    const w = world;
    const id = await postedCardThatMovedOn(w);
    const paused = pausingStore(w.store);
    const stale = deliverCard(id, 'final', { ...w.delivery, store: paused.store });
    await paused.reached;
    const staleFence = Number((await w.redis.get(`${w.prefix}card:lock:{${id}}`))?.split('|').pop());

    // While it is paused its lease runs out; another worker takes the card (a larger fence) and updates it.
    await w.redis.del(`${w.prefix}card:lock:{${id}}`);
    await w.store.update(id, (current) => ({ incident: { ...current, displayTitle: 'Payment gateway refused the charge (seen by the later worker)' }, audit: [] }));
    await deliverCard(id, 'final', w.delivery);
    const later = await w.store.require(id);
    const callsBeforeResume = w.faults.calls.length;
    expect(updates(w)).toBe(1);
    const ledger = await createRedisCardDeliveryState(w.redis, w.prefix).lastSent(id);

    paused.release();
    await stale;
    expect(w.faults.calls).toHaveLength(callsBeforeResume);
    expect(await createRedisCardDeliveryState(w.redis, w.prefix).lastSent(id)).toEqual(ledger);
    expect(ledger).toMatchObject({ version: later.version, state: 'analyzing' });
    expect(w.cardsOf(id)[0]?.text).toBe((await w.currentRender(id)).text);
    expect(Number(await w.redis.get(`${w.prefix}card:lock:{${id}}:admitted`))).toBeGreaterThan(staleFence);
    const refused = (await createAuditLog(w.redis, w.prefix).list({ incidentId: id })).filter((a) => a.outcome === 'denied');
    expect(refused).toEqual([expect.objectContaining({ action: 'card.update', details: expect.objectContaining({ fence: staleFence, code: 'ERR_STALE_LEASE' }) })]);
    expect(refused[0]?.reason).toMatch(/fence \d+\) was taken over/);
    const { values } = await w.metrics.cardDeliveries.get();
    expect(values.find((v) => v.labels.outcome === 'refused_stale')?.value).toBe(1);
    // The record is the later worker's: the refused delivery wrote nothing to it either.
    expect(await w.store.require(id)).toEqual(later);
  });

  it('updates the card when no other worker took it meanwhile', async () => {
    world = await createSlackFaultWorld({ callsPerSecond: 50 });
    const w = world;
    const id = await postedCardThatMovedOn(w);
    const paused = pausingStore(w.store);
    const delivery = deliverCard(id, 'final', { ...w.delivery, store: paused.store });
    await paused.reached;
    paused.release();
    await delivery;
    expect(updates(w)).toBe(1);
    expect(w.cardsOf(id)[0]?.text).toBe((await w.currentRender(id)).text);
    expect((await createAuditLog(w.redis, w.prefix).list({ incidentId: id })).filter((a) => a.outcome === 'denied')).toEqual([]);
  });
});
