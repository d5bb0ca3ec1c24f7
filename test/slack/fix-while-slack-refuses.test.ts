/**
 * Slack is an output of a fix, never its outcome: with every Slack call refused (429) from before
 * the card is posted until after the fix is pushed, the fix ends `fixed`, and once Slack answers
 * again the card shows it and its thread holds the "Branch pushed" reply. A whole Medic (real
 * jobs, Redis, git) with the sandbox as Slack behind a loopback that answers like a rate-limited Slack.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackSandbox, type SlackSandbox } from '../../src/sandbox/create-slack-sandbox.js';
import { createLoopbackSlackFaults, type LoopbackSlackFaults } from '../loopback/slack-fault-proxy.js';
import { APPROVER, awaitFixEnd, checkoutErrorLines, createWorld, type World } from '../support/medic-world.js';

let world: World | undefined;
let sandbox: SlackSandbox | undefined;
let faults: LoopbackSlackFaults | undefined;
afterEach(async () => {
  await world?.close();
  await faults?.close();
  await sandbox?.close();
  world = undefined;
  faults = undefined;
  sandbox = undefined;
});

const TOKEN = 'xoxb-fix-while-slack-refuses';

describe('a fix approved while Slack refuses every call', () => {
  it('is fixed when pushed, and its card and "Branch pushed" reply arrive once Slack answers', async () => {
    sandbox = await createSlackSandbox({ port: 0, signingSecret: 'unused-here', botToken: TOKEN, medicEventsUrl: 'http://127.0.0.1:9/slack/events' });
    faults = await createLoopbackSlackFaults(sandbox.apiUrl);
    let refusing = true;
    faults.setFaults(() => (refusing ? { kind: 'ratelimited', retryAfterS: 1 } : undefined));
    const s = sandbox;
    world = await createWorld({ llm: 'scripted' });
    const w = world;
    await w.writeLogs('shop.jsonl', checkoutErrorLines(1));
    const medic = await w.startMedic(
      { MEDIC_SLACK_CHANNEL: s.channelId, MEDIC_CARD_RETRY_MIN_MS: '200', MEDIC_CARD_RETRY_MAX_MS: '1000' },
      { botToken: TOKEN, signingSecret: 'unused-here', apiUrl: faults.apiUrl },
    );
    await medic.startWorkers();

    const incident = await w.waitFor(async () => (await medic.store.list({ states: ['awaiting_approval'] }))[0], 'the proposal');
    expect(incident.card).toBeUndefined(); // no card yet: Slack refused it
    const approved = await medic.commands.approve({ incidentId: incident.id, proposalHash: incident.proposal!.contentHash, caller: { userId: APPROVER, via: 'slack' } });
    expect(approved.ok).toBe(true);
    const ended = await awaitFixEnd(w, medic, incident.id);
    expect(ended.state).toBe('fixed');
    expect(ended.fix?.pushStatus).toBe('pushed');
    expect(ended.card).toBeUndefined(); // the fix did not wait for Slack
    expect(faults.calls.some((c) => c.answered === 'ratelimited')).toBe(true);

    refusing = false; // Slack answers again
    const cardOf = () => s.state.messages.filter((m) => !m.threadTs && !m.ephemeralFor && m.metadata?.event_payload.key === `card:${incident.id}`);
    await w.waitFor(async () => {
      const card = cardOf()[0];
      return card && s.state.messages.some((m) => m.threadTs === card.ts && /Branch pushed|fix\//.test(m.text)) && /Branch pushed|Awaiting merge/.test(JSON.stringify(card.blocks)) && JSON.stringify(card.blocks).includes('fix/');
    }, 'the card showing the pushed fix (awaiting its merge) and its "Branch pushed" reply', 30_000);
    expect(cardOf()).toHaveLength(1);
    const thread = s.state.messages.filter((m) => m.threadTs === cardOf()[0]!.ts);
    const keys = thread.map((m) => m.metadata?.event_payload.key);
    expect(keys).toContain(`fix:${incident.id}:${incident.proposal!.contentHash}:branch`);
    expect(new Set(keys).size).toBe(keys.length); // each reply once
    expect((await medic.store.require(incident.id)).state).toBe('fixed');
  }, 120_000);
});
