/** The start-up git sync goes through the gateway, and a write-back to the documents is audited. */
import { afterEach, describe, expect, it } from 'vitest';
import { APPROVER, awaitIncident, startCheckoutWorld, type World } from '../support/medic-world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('side effects outside the pipeline steps', () => {
  it('audits the clone sync as a gateway call and the learning write-back after a rejection', async () => {
    const started = await startCheckoutWorld('scripted');
    world = started.world;
    const { world: w, medic } = started;
    const incident = await awaitIncident(w, medic, ['awaiting_approval']);
    const all = await medic.audit.list({ count: 1_000 });
    expect(all.some((a) => a.action === 'gateway.tool-call' && a.details?.tool === 'git.sync' && a.outcome === 'allowed' && a.incidentId === undefined)).toBe(true);

    const caller = { userId: APPROVER, via: 'slack' as const };
    expect((await medic.commands.reject({ incidentId: incident.id, caller, proposalHash: incident.proposal!.contentHash, reason: 'wrong place' })).ok).toBe(true);
    const written = await w.waitFor(async () => (await medic.audit.list({ incidentId: incident.id })).find((a) => a.action === 'learning.write-back'), 'the write-back record');
    expect(written).toMatchObject({ outcome: 'done', actor: { kind: 'pipeline' }, details: { state: 'rejected' } });
  }, 120_000);
});
