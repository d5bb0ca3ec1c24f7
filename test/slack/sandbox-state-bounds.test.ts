import { describe, expect, it } from 'vitest';
import { SandboxState } from '../../src/sandbox/sandbox-state.js';

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
});
