/**
 * Cards on Slack's bad days, end to end: the real analyze and deliver-card jobs on real Redis, the
 * real Slack client and adapter, and the sandbox's Web API behind a loopback that injects Slack's
 * own fault answers (429 with Retry-After, `ok:false` errors, answers later than the deadline).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { deliverCard } from '../../jobs/deliver-card.js';
import { describeCardDelivery } from '../../src/app/card-delivery-check.js';
import { transition } from '../../src/domain/incident.js';
import { createSlackFaultWorld, type SlackFaultWorld } from '../support/slack-fault-world.js';

let world: SlackFaultWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A counter's value for one label set (prom-client's own reading). */
async function counted(counter: { get(): Promise<{ values: { value: number; labels: Record<string, unknown> }[] }> }, labels: Record<string, string> = {}): Promise<number> {
  const { values } = await counter.get();
  return values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value ?? 0;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const same = (a: { text: string; blocks: unknown[] }, b: { text: string; blocks: unknown[] }) => JSON.stringify([a.text, a.blocks]) === JSON.stringify([b.text, b.blocks]);

/** True once the incident has exactly one card and it shows the stored record's current state. */
async function oneFinalCard(w: SlackFaultWorld, id: string): Promise<boolean> {
  const incident = await w.store.get(id);
  const cards = w.cardsOf(id);
  return incident?.state === 'reported' && cards.length === 1 && cards[0] !== undefined && same(cards[0], await w.currentRender(id));
}

describe('a card post that times out', () => {
  it('is looked up by its key before it is sent again: exactly one card', async () => {
    world = await createSlackFaultWorld({ callsPerSecond: 50, timeoutMs: 300 });
    const w = world;
    let slowed = 0;
    // Slack stores the first post, but its answer comes after the client's deadline.
    w.faults.setFaults((method) => (method === 'chat.postMessage' && slowed++ === 0 ? { kind: 'slow-answer', ms: 1_200 } : undefined));
    const [id = ''] = await w.openIncidents(1);
    w.startWorkers();
    await w.waitFor('one card in its final state', () => oneFinalCard(w, id), 20_000);
    await sleep(1_300); // the late answer arrives; nothing may follow it
    expect(w.cardsOf(id)).toHaveLength(1);
    expect(w.faults.calls.filter((c) => c.method === 'chat.postMessage')).toHaveLength(1);
    // The unknown outcome is resolved by one look-up, once the late answer could have landed.
    expect(w.faults.calls.filter((c) => c.method === 'conversations.history')).toHaveLength(1);
    expect((await w.store.require(id)).card?.ts).toBe(w.cardsOf(id)[0]?.ts);
    expect(await counted(w.metrics.cardDeliveryFailures, { reason: 'timeout' })).toBeGreaterThanOrEqual(1);
  });
});

describe('a new card on a healthy Slack', () => {
  it('costs the post and, only when the render moved on, one update: no history read', async () => {
    world = await createSlackFaultWorld({ callsPerSecond: 50 });
    const w = world;
    const [id = ''] = await w.openIncidents(1);
    w.startWorkers();
    await w.waitFor('one card in its final state', () => oneFinalCard(w, id), 20_000);
    await sleep(300);
    const methods = w.faults.calls.map((c) => c.method).filter((m) => m.startsWith('chat.') || m.startsWith('conversations.history') || m.startsWith('conversations.replies'));
    expect(methods.filter((m) => m === 'chat.postMessage')).toHaveLength(1);
    expect(methods.filter((m) => m === 'conversations.history' || m === 'conversations.replies')).toEqual([]);
    expect(methods.length).toBeLessThanOrEqual(2);
  });
});

describe('a card post applied only after a retry looked for it', () => {
  it('keeps one card: the late copy is found by one more look-up and deleted', async () => {
    world = await createSlackFaultWorld({ callsPerSecond: 50, timeoutMs: 300 });
    const w = world;
    let held = 0;
    // The first post reaches "Slack" only after the client gave up and after the settle time (600 ms) has passed.
    w.faults.setFaults((method) => (method === 'chat.postMessage' && held++ === 0 ? { kind: 'late-apply', ms: 1_000 } : undefined));
    const [id = ''] = await w.openIncidents(1);
    w.startWorkers();
    await w.waitFor('one card in its final state', () => oneFinalCard(w, id), 20_000);
    await sleep(1_500); // the check for a late copy runs a settle time after the second post
    await w.waitFor('one card left', () => w.cardsOf(id).length === 1, 10_000);
    expect((await w.store.require(id)).card?.ts).toBe(w.cardsOf(id)[0]?.ts);
    expect(w.faults.calls.filter((c) => c.method === 'chat.postMessage')).toHaveLength(2); // the late one and the retry
    expect(w.sandbox.state.calls.filter((c) => c.method === 'chat.delete')).toHaveLength(1);
    expect(w.faults.calls.filter((c) => c.method === 'conversations.history')).toHaveLength(2); // after the settle time, and the check for a late copy
  });
});

describe('a card update that times out', () => {
  it('never lets the older render land over a newer one, even applied after the client gave up', async () => {
    world = await createSlackFaultWorld({ callsPerSecond: 50, timeoutMs: 300 });
    const w = world;
    const [id = ''] = await w.openIncidents(1);
    await deliverCard(id, 'final', w.delivery);
    const ref = (await w.store.require(id)).card!;
    const at = () => new Date().toISOString();

    // Progress: the update is held by "Slack" and applied 450 ms later, after the 300 ms deadline.
    await w.store.update(id, (current) => ({ incident: { ...transition(current, 'analyzing', at()), steps: { intake: { at: at() }, 'log-window': { at: at() } } }, audit: [] }));
    const progress = await w.currentRender(id);
    w.faults.setFaults((method) => (method === 'chat.update' ? { kind: 'late-apply', ms: 450 } : undefined));
    await sleep(100); // progress goes out only on a free channel
    await deliverCard(id, 'progress', w.delivery); // progress failures are dropped, never retried
    expect(await counted(w.metrics.cardDeliveries, { outcome: 'progress_dropped' })).toBe(1);
    expect(w.faults.calls.filter((c) => c.answered === 'late-apply')).toHaveLength(1);
    w.faults.setFaults(() => undefined);

    // Final: the analysis ends; its update must wait until the late one can no longer land.
    await w.store.update(id, (current) => ({ incident: { ...transition(current, 'reported', at()), rca: undefined }, audit: [] }));
    const final = await w.currentRender(id);
    expect(same(progress, final)).toBe(false);
    const first = await deliverCard(id, 'final', w.delivery).catch((e: unknown) => e);
    expect(first).toMatchObject({ upstreamCode: 'unsettled', transient: true });
    await sleep((first as { retryAfterMs: number }).retryAfterMs + 20);
    await deliverCard(id, 'final', w.delivery);
    await sleep(600);

    const applied = w.sandbox.state.calls.filter((c) => c.method === 'chat.update' && c.args.ts === ref.ts).map((c) => ({ text: String(c.args.text), blocks: JSON.parse(String(c.args.blocks)) as unknown[] }));
    const finalAt = applied.findIndex((a) => same(a, final));
    expect(applied.findIndex((a) => same(a, progress))).toBeLessThan(finalAt); // the late update did land, before
    expect(applied.slice(finalAt).every((a) => same(a, final))).toBe(true);
    expect(same(w.cardsOf(id)[0]!, final)).toBe(true);
  });

  it('skips an update rendered from an older incident version than one already sent', async () => {
    world = await createSlackFaultWorld({ callsPerSecond: 50 });
    const w = world;
    const [id = ''] = await w.openIncidents(1);
    await deliverCard(id, 'final', w.delivery);
    const incident = await w.store.require(id);
    // A newer render (a step done), so the delivery sends an update of its own.
    const newer = await w.store.update(id, (current) => ({ incident: { ...transition(current, 'analyzing', new Date().toISOString()), steps: { intake: { at: new Date().toISOString() } } }, audit: [] }));
    await deliverCard(id, 'final', w.delivery);
    const before = w.faults.calls.length;
    await w.delivery.chat.updateCard(incident.card!, { text: 'stale', blocks: [], version: incident.version - 1 });
    expect(w.faults.calls.length).toBe(before);
    expect(await counted(w.metrics.slackStaleUpdates)).toBe(1);
    expect(newer.version).toBeGreaterThan(incident.version);
    expect(w.cardsOf(id)[0]?.text).not.toBe('stale');
  });
});

describe('a channel Slack refuses', () => {
  it('channel_not_found: the analysis completes, the incident and doctor say what to fix, and the card comes once the channel is fixed', async () => {
    world = await createSlackFaultWorld({ callsPerSecond: 50, retryMinMs: 100, retryMaxMs: 400 });
    const w = world;
    let broken = true;
    w.faults.setFaults((method) => (broken && method !== 'auth.test' ? { kind: 'error', error: 'channel_not_found' } : undefined));
    const [id = ''] = await w.openIncidents(1);
    w.startWorkers();
    await w.waitFor('the analysis to complete and the failure to be recorded', async () => {
      const incident = await w.store.get(id);
      return incident?.state === 'reported' && incident.cardDelivery?.upstreamCode === 'channel_not_found';
    }, 20_000);
    const doctor = describeCardDelivery({ failing: await w.delivery.state.failing(), queued: {}, stale: [] });
    expect(doctor.ok).toBe(false);
    expect(doctor.detail).toMatch(/channel_not_found.*MEDIC_SLACK_CHANNEL/);
    expect(w.cardsOf(id)).toHaveLength(0);

    broken = false; // the operator fixes the channel
    await w.waitFor('one card in its final state', () => oneFinalCard(w, id), 20_000);
    await sleep(500);
    expect(w.cardsOf(id)).toHaveLength(1);
    expect((await w.store.require(id)).cardDelivery).toBeUndefined();
    expect(await w.delivery.state.failing()).toEqual([]);
    expect(describeCardDelivery({ failing: [], queued: {}, stale: [] }).ok).toBe(true);
  });

  it('not_in_channel: joins the channel (conversations.join) and posts the card', async () => {
    world = await createSlackFaultWorld({ callsPerSecond: 50 });
    const w = world;
    let joined = false;
    w.faults.setFaults((method) => {
      if (method === 'conversations.join') joined = true;
      return method === 'chat.postMessage' && !joined ? { kind: 'error', error: 'not_in_channel' } : undefined;
    });
    const [id = ''] = await w.openIncidents(1);
    await deliverCard(id, 'final', w.delivery);
    expect(joined).toBe(true);
    expect(w.cardsOf(id)).toHaveLength(1);
  });
});

describe('a 429 storm on every Slack method during a 50-incident storm', () => {
  it('ends with 50 analyses complete and exactly 50 cards in their final state, never above the call limit', async () => {
    // Time is scaled: "60 s" of 429s is 6 s of Retry-After: 1 answers; the limit is 20 calls/s.
    const limit = 20;
    world = await createSlackFaultWorld({ callsPerSecond: limit, retryMinMs: 200, retryMaxMs: 3_000 });
    const w = world;
    const stormEnds = Date.now() + 6_000;
    w.faults.setFaults(() => (Date.now() < stormEnds ? { kind: 'ratelimited', retryAfterS: 1 } : undefined));
    const ids = await w.openIncidents(50);
    w.startWorkers();
    await w.waitFor('50 analyses', async () => (await Promise.all(ids.map((id) => w.store.get(id)))).every((i) => i?.state === 'reported'), 20_000);
    expect(Date.now()).toBeLessThan(stormEnds); // they completed while every Slack call was refused
    await w.waitFor('50 final cards', async () => (await Promise.all(ids.map((id) => oneFinalCard(w, id)))).every(Boolean), 45_000);
    await sleep(500);
    expect(w.sandbox.state.messages.filter((m) => !m.threadTs && !m.ephemeralFor)).toHaveLength(50);
    expect(w.faults.calls.filter((c) => c.answered === 'ratelimited').length).toBeGreaterThan(0);
    expect(w.faults.maxCallsWithin(1_000)).toBeLessThanOrEqual(limit);
  }, 60_000);
});

describe('a final card while another delivery of it is under way', () => {
  it('waits for that delivery instead of retrying a second later', async () => {
    world = await createSlackFaultWorld({ callsPerSecond: 50, timeoutMs: 1_000 });
    const w = world;
    const [id = ''] = await w.openIncidents(1);
    // Another worker holds the card for one Slack call's time.
    const { token } = (await w.delivery.state.tryLock(id, 5_000))!;
    setTimeout(() => void w.delivery.state.unlock(id, token), 150);
    const started = Date.now();
    await deliverCard(id, 'final', w.delivery);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(w.cardsOf(id)).toHaveLength(1);
    // A progress update never waits: it is dropped while the card is busy.
    const again = (await w.delivery.state.tryLock(id, 5_000))!;
    await deliverCard(id, 'progress', w.delivery);
    expect(await counted(w.metrics.cardDeliveries, { outcome: 'progress_dropped' })).toBe(1);
    await w.delivery.state.unlock(id, again.token);
  });
});
