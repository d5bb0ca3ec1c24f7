import { describe, expect, it } from 'vitest';
import { MAX_RECORDED_CALLS, MAX_RESPONSE_URLS, MAX_TRIGGERS, SandboxState } from '../../src/sandbox/sandbox-state.js';

describe('the sandbox state in memory', () => {
  it('keeps the newest 200 ephemeral replies and every channel message beside them', () => {
    const state = new SandboxState({ id: 'C1', name: 'incidents' });
    const card = state.add({ channel: 'C1', text: 'card', blocks: [], user: 'B1' });
    for (let i = 0; i < 1_000; i++) state.add({ channel: 'C1', text: `only you can see this ${i}`, blocks: [], user: 'B1', ephemeralFor: 'U1' });
    const ephemerals = state.messages.filter((m) => m.ephemeralFor);
    expect(ephemerals).toHaveLength(200);
    expect(ephemerals[0]?.text).toBe('only you can see this 800');
    expect(ephemerals.at(-1)?.text).toBe('only you can see this 999');
    expect(state.find(card.ts)?.text).toBe('card');
  });

  it('keeps only the newest Web API calls, trigger ids and response_urls, however long it runs', () => {
    const state = new SandboxState({ id: 'C1', name: 'incidents' });
    for (let i = 0; i < MAX_RECORDED_CALLS + 5_000; i++) state.recordCall({ method: 'chat.update', args: { ts: String(i) } });
    expect(state.calls).toHaveLength(MAX_RECORDED_CALLS);
    expect(state.calls[0]?.args.ts).toBe('5000');
    expect(state.calls.at(-1)?.args.ts).toBe(String(MAX_RECORDED_CALLS + 4_999));

    const triggers = Array.from({ length: MAX_TRIGGERS + 300 }, (_, i) => state.newTrigger(`U${i}`));
    expect(state.triggers.size).toBe(MAX_TRIGGERS);
    expect(state.triggers.has(triggers[0]!)).toBe(false);
    expect(state.triggers.get(triggers.at(-1)!)).toBe(`U${MAX_TRIGGERS + 299}`);

    for (let i = 0; i < MAX_RESPONSE_URLS + 300; i++) state.addResponseUrl(`r${i}`, { userId: 'U1', channel: 'C1' });
    expect(state.responseUrls.size).toBe(MAX_RESPONSE_URLS);
    expect(state.responseUrls.has('r0')).toBe(false);
    expect(state.responseUrls.has(`r${MAX_RESPONSE_URLS + 299}`)).toBe(true);
  });
});
