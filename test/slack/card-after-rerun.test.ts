/**
 * The card tells the incident's state after every write: a rejection, a re-run and a stale card
 * found by the ledger, on a whole Medic (real jobs, real Redis, the real Slack adapter and client)
 * with the sandbox as Slack.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { findStaleCards, repairStaleCards } from '../../src/use-cases/stale-cards.js';
import { createRedisCardDeliveryState } from '../../src/adapters/redis/card-delivery-state.js';
import { createSlackSandbox, type SlackSandbox } from '../../src/sandbox/create-slack-sandbox.js';
import type { Medic } from '../../src/app/create-medic.js';
import { APPROVER, awaitIncident, checkoutErrorLines, createWorld, type World } from '../support/medic-world.js';

let world: World | undefined;
let sandbox: SlackSandbox | undefined;
afterEach(async () => {
  await world?.close();
  await sandbox?.close();
  world = undefined;
  sandbox = undefined;
});

const TOKEN = 'xoxb-card-after-rerun';
const caller = { userId: APPROVER, via: 'slack' as const };

async function startOnSandbox(): Promise<{ w: World; medic: Medic; s: SlackSandbox }> {
  sandbox = await createSlackSandbox({ port: 0, signingSecret: 'unused-here', botToken: TOKEN, medicEventsUrl: 'http://127.0.0.1:9/slack/events' });
  world = await createWorld({ llm: 'scripted' });
  await world.writeLogs('shop.jsonl', checkoutErrorLines(1));
  const medic = await world.startMedic({ MEDIC_SLACK_CHANNEL: sandbox.channelId }, { botToken: TOKEN, signingSecret: 'unused-here', apiUrl: sandbox.apiUrl });
  await medic.startWorkers();
  return { w: world, medic, s: sandbox };
}

/** The incident's one top-level card in the sandbox, as its blocks' JSON. */
function cardJson(s: SlackSandbox, id: string): string | undefined {
  const cards = s.state.messages.filter((m) => !m.threadTs && !m.ephemeralFor && m.metadata?.event_payload.key === `card:${id}`);
  expect(cards.length).toBeLessThanOrEqual(1);
  return cards[0] && JSON.stringify(cards[0].blocks);
}

describe('a rejected card whose incident is analysed again', () => {
  it('shows Awaiting approval with Approve again once the re-run proposes, not the rejection', async () => {
    const { w, medic, s } = await startOnSandbox();
    const first = await awaitIncident(w, medic, ['awaiting_approval']);
    await w.waitFor(async () => cardJson(s, first.id)?.includes('medic_approve'), 'the card offering Approve');

    expect((await medic.commands.reject({ incidentId: first.id, proposalHash: first.proposal!.contentHash, caller, reason: 'wrong guard' })).ok).toBe(true);
    await w.waitFor(async () => {
      const card = cardJson(s, first.id);
      return card !== undefined && /Rejected/.test(card) && !card.includes('medic_approve');
    }, 'the rejected card');

    expect((await medic.commands.rerun({ incidentId: first.id, caller, reason: 'try again' })).ok).toBe(true);
    const again = await w.waitFor(async () => {
      const incident = await medic.store.get(first.id);
      return incident?.state === 'awaiting_approval' && incident.round === 1 ? incident : undefined;
    }, 'the re-run proposal');
    // The re-run's card is the same render as the first one's; only the ledger knows the rejection stood in between.
    await w.waitFor(async () => {
      const card = cardJson(s, first.id);
      return card !== undefined && card.includes('medic_approve') && !/Rejected/.test(card);
    }, 'the card offering Approve again (not "Rejected")', 20_000);
    // The ledger records the send once Slack answered it: awaited, not read in the same instant.
    const ledger = await w.waitFor(async () => {
      const sent = await createRedisCardDeliveryState(w.redis, w.prefix).lastSent(first.id);
      return sent?.state === 'awaiting_approval' ? sent : undefined;
    }, 'the ledger to record the Approve card', 10_000);
    expect(ledger).toMatchObject({ state: 'awaiting_approval' });
    expect(ledger?.version).toBeGreaterThanOrEqual(again.version);
    const doctor = (await medic.checks()).find((c) => c.name === 'card delivery');
    expect(doctor?.ok).toBe(true);
  }, 90_000);
});

describe('a card left behind its incident', () => {
  it('is named by doctor and delivered again by the sweep', async () => {
    const { w, medic, s } = await startOnSandbox();
    const incident = await awaitIncident(w, medic, ['awaiting_approval']);
    const cards = createRedisCardDeliveryState(w.redis, w.prefix);
    // A write outside the delivery path: the channel shows "rejected" while the incident awaits approval.
    const stale = { text: 'stale', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '🚫 Rejected' } }] };
    await medic.pipeline.chat.updateCard(incident.card!, stale);
    await cards.markSent(incident.id, { digest: 'written-elsewhere', state: 'rejected', version: incident.version });

    const later = Date.now() + 60_000;
    expect(await findStaleCards({ store: medic.store, cards }, later)).toEqual([{ incidentId: incident.id, shows: 'rejected', state: 'awaiting_approval', posted: true }]);
    expect(await findStaleCards({ store: medic.store, cards }, Date.now())).toEqual([]); // a fresh write may still be on its way
    const repaired = await repairStaleCards({ store: medic.store, cards, deliveries: medic.fix.deliveries }, later);
    expect(repaired.map((r) => r.incidentId)).toEqual([incident.id]);
    await w.waitFor(async () => cardJson(s, incident.id)?.includes('medic_approve'), 'the repaired card');
    expect(await findStaleCards({ store: medic.store, cards }, later)).toEqual([]);
  }, 90_000);
});
