/**
 * The whole loop with a proposal that does not build: the sample's shop type-checks every proposal
 * (data/catalog.yaml), the scripted fix adds a type error, so the card offers no Approve and the
 * approve use-case refuses it — through the app's gateway, as `npm start` runs it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { presentIncidentCard } from '../../src/presenters/incident-card.js';
import { APPROVER, awaitIncident, checkoutErrorLines, checkoutFixScript, createWorld, type World } from '../support/medic-world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('a proposal whose check fails', () => {
  it('is carded with its failed check and no Approve, and its approval is refused', async () => {
    const script = await checkoutFixScript();
    const fix = script.fix![0] as { newContent: string };
    fix.newContent = `${fix.newContent}export const discountCap: number = 'ten percent';\n`;
    world = await createWorld({ script });
    await world.writeLogs('shop.jsonl', checkoutErrorLines(1));
    const medic = await world.startMedic();
    await medic.startWorkers();

    const incident = await awaitIncident(world, medic, ['awaiting_approval']);
    expect(incident.proposalCheck).toMatchObject({ status: 'failed', contentHash: incident.proposal!.contentHash, isolation: expect.any(String) });
    expect(incident.proposalCheck?.output).toMatch(/src\/checkout\/discounts\.ts.*error TS2322/);
    const blocks = presentIncidentCard({ incident }).blocks as { block_id?: string; text?: { text: string }; elements?: { action_id?: string }[] }[];
    expect(blocks.find((b) => b.block_id === 'medic_check')?.text?.text).toMatch(/^\*Check ✗\* `ln -s .*tsc --noEmit -p tsconfig\.json` exit 2/);
    expect(blocks.find((b) => b.block_id === 'medic_decision')?.elements?.map((e) => e.action_id)).toEqual(['medic_reject', 'medic_details', 'medic_feedback_rca_up', 'medic_feedback_rca_down']);

    const refused = await medic.commands.approve({ incidentId: incident.id, caller: { userId: APPROVER, via: 'slack' }, proposalHash: incident.proposal!.contentHash });
    expect(refused).toMatchObject({ ok: false, code: 'ERR_FIX_REFUSED' });
    expect((await medic.store.require(incident.id)).state).toBe('awaiting_approval');
    const trail = await medic.audit.list({ incidentId: incident.id });
    expect(trail.some((a) => a.action === 'gateway.tool-call' && a.details?.tool === 'code.check-proposal' && a.outcome === 'allowed')).toBe(true);
    expect(trail.filter((a) => a.action === 'incident.approve').map((a) => a.outcome)).toEqual(['denied']);
    expect(trail.some((a) => a.action === 'gateway.tool-call' && a.details?.tool === 'git.publish-fix')).toBe(false);
  }, 120_000);
});
