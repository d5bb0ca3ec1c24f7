/** Approving the same proposal again after `/medic fix` is a new fix run, not a no-op behind a kept job. */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { APPROVER, awaitIncident, startCheckoutWorld, type World } from '../support/medic-world.js';
import { fixBranches } from '../support/git-remote.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('re-approving after a re-run', () => {
  it('pushes again when the re-run proposes the very same content', async () => {
    const started = await startCheckoutWorld('scripted');
    world = started.world;
    const { world: w, medic } = started;
    const caller = { userId: APPROVER, via: 'slack' as const };
    const finished = (round: number) => async () => {
      const incident = await medic.store.get(first.id);
      return incident && incident.round === round && (incident.state === 'fixed' || incident.state === 'fix_failed') ? incident : undefined;
    };

    const first = await awaitIncident(w, medic, ['awaiting_approval']);
    expect((await medic.commands.approve({ incidentId: first.id, proposalHash: first.proposal!.contentHash, caller })).ok).toBe(true);
    expect((await w.waitFor(finished(0), 'the first fix')).state).toBe('fixed');

    // The first fix was pushed, so the re-run is confirmed, as the Re-run anyway button does.
    expect((await medic.commands.rerun({ incidentId: first.id, caller, confirmed: true })).ok).toBe(true);
    const again = await w.waitFor(async () => {
      const incident = await medic.store.get(first.id);
      return incident?.state === 'awaiting_approval' && incident.round === 1 ? incident : undefined;
    }, 'the re-run proposal');
    expect(again.proposal?.contentHash).toBe(first.proposal?.contentHash);
    expect((await medic.commands.approve({ incidentId: first.id, proposalHash: again.proposal!.contentHash, caller })).ok).toBe(true);

    const second = await w.waitFor(finished(1), 'the second fix (not "approved — pushing…" forever)', 30_000);
    expect(second.state).toBe('fixed');
    expect(fixBranches(join(w.env.MEDIC_DATA_DIR!, 'remotes/sample-service.git'))).toHaveLength(2);
  }, 120_000);
});
