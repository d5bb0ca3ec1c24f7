/** The terminal mirror: one line per card event, the whole card only with --verbose. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { mirrorToConsole } from '../../src/adapters/console-chat/mirror-chat.js';
import type { Chat } from '../../src/ports/chat.js';
import { presentIncidentCard } from '../../src/presenters/incident-card.js';
import { buildAnalysedIncident, buildIncident } from '../fixtures/slack/build-incident.js';
import { buildEvent } from '../support/builders.js';

function memoryChat(): Chat {
  let n = 0;
  return {
    check: async () => ({ name: 'chat', adapter: 'memory', ok: true, detail: '' }),
    postCard: async () => ({ channel: 'C1', ts: `1.${++n}` }),
    updateCard: async () => undefined,
    replyInThread: async () => undefined,
    postEphemeral: async () => undefined,
  };
}

function mirror(verbose: boolean) {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c: Buffer) => (text += c.toString()));
  return { chat: mirrorToConsole(memoryChat(), out, { verbose }), text: () => text };
}

describe('the terminal mirror', () => {
  it('prints one line per card event and nothing for an update that changes no line', async () => {
    const { chat, text } = mirror(false);
    // The title shows the first event's value where its family has a variable.
    const firstEvent = buildEvent({ message: 'Invalid discount Infinity', raw: 'RangeError: Invalid discount Infinity' });
    const analysing = buildIncident({ state: 'analyzing', title: 'RangeError: Invalid discount <*>', firstEvent });
    const ref = await chat.postCard('card:1', presentIncidentCard({ incident: analysing }));
    await chat.updateCard(ref, presentIncidentCard({ incident: analysing }));
    await chat.updateCard(ref, presentIncidentCard({ incident: buildAnalysedIncident({ title: 'RangeError: Invalid discount <*>', firstEvent }) }));
    await chat.replyInThread(ref, 'reply:1', { text: 'Pushed branch fix/x', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '🌿 Pushed branch `fix/x`' } }] });
    const lines = text().trim().split('\n');
    expect(lines).toEqual([
      'medic · card posted: Analysing  inc-checkout-1  RangeError: Invalid discount Infinity',
      'medic · card updated: Awaiting approval  inc-checkout-1  RangeError: Invalid discount Infinity',
      'medic · thread reply  inc-checkout-1  Pushed branch fix/x',
    ]);
  });

  it('prints the whole card with --verbose', async () => {
    const { chat, text } = mirror(true);
    await chat.postCard('card:1', presentIncidentCard({ incident: buildAnalysedIncident() }));
    expect(text()).toContain('│ [ Approve ] [ Reject ] [ View details ]');
    expect(text()).toContain('+export const TIMEOUT_MS = 15000;');
  });
});
