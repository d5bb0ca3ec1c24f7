import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { APPROVER, awaitFixEnd, awaitIncident, startCheckoutWorld, type World } from '../support/medic-world.js';
import { fixBranches, gitIn } from '../support/git-remote.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('the whole loop on the embedded defaults', () => {
  it('turns a log line into an incident, an analysis, a card, an approval and one fix commit on a real remote', async () => {
    const started = await startCheckoutWorld('scripted');
    world = started.world;
    const { world: w, medic } = started;

    const waiting = await awaitIncident(w, medic, ['awaiting_approval']);
    expect(waiting.proposal?.file).toBe('src/checkout/discounts.ts');
    expect(waiting.rca?.evidenceIds).not.toContain('not-shown-9');
    expect(waiting.logs?.entries.some((e) => e.message.includes('checkout started'))).toBe(true);
    expect(w.chatText()).toContain('Approve');

    const refused = await medic.commands.approve({ incidentId: waiting.id, proposalHash: waiting.proposal!.contentHash, caller: { userId: 'U_SOMEONE', via: 'slack' } });
    expect(refused.ok).toBe(false);
    const approved = await medic.commands.approve({ incidentId: waiting.id, proposalHash: waiting.proposal!.contentHash, caller: { userId: APPROVER, via: 'slack' } });
    expect(approved.ok).toBe(true);

    const fixed = await awaitFixEnd(w, medic, waiting.id);
    expect([fixed.state, fixed.error]).toEqual(['fixed', undefined]);
    const remote = join(w.env.MEDIC_DATA_DIR!, 'remotes/sample-service.git');
    const branches = fixBranches(remote);
    expect(branches).toEqual([fixed.fix!.branch]);
    expect(branches[0]).toMatch(/^fix\/inc-/);
    expect(gitIn(remote, ['rev-list', '--count', `main..${branches[0]}`])).toBe('1');
    expect(gitIn(remote, ['diff', '--name-only', 'main', branches[0]!])).toBe('src/checkout/discounts.ts');
    // The "Branch pushed" reply is a delivery of its own, queued before the fix ends.
    await w.waitFor(async () => w.chatText().includes(fixed.fix!.branch), 'the branch reply');

    const trail = await medic.audit.list({ incidentId: waiting.id });
    expect(trail.filter((a) => a.action === 'incident.approve').map((a) => a.outcome)).toEqual(['denied', 'allowed']);
    expect(trail.filter((a) => a.action === 'step.publish')).toHaveLength(1);
    // Every action went through the tool gateway: the push is audited as an allowed MUTATING call.
    expect(trail.filter((a) => a.details?.tool === 'git.publish-fix').map((a) => a.outcome)).toEqual(['allowed']);
    expect(trail.some((a) => a.details?.tool === 'logs.window' && a.outcome === 'allowed')).toBe(true);
  }, 120_000);

  it('without a model and with reverts off, posts the offline analyzer\'s degraded card and proposes no fix', async () => {
    const started = await startCheckoutWorld('offline', { MEDIC_REVERT_PROPOSALS: 'false' });
    world = started.world;
    const { world: w, medic } = started;
    const reported = await awaitIncident(w, medic, ['reported']);
    expect(reported.proposal).toBeUndefined();
    expect(reported.provenance.rca?.analyst).toBe('offline');
    expect(reported.rca!.confidence).toBeLessThanOrEqual(0.4);
    expect(reported.proposalNote).toBeTruthy();
    expect(w.chatText()).not.toContain('[ Approve ]');
    expect(fixBranches(join(w.env.MEDIC_DATA_DIR!, 'remotes/sample-service.git'))).toEqual([]);
  }, 120_000);

  it('after a rejection, /medic fix re-runs the analysis and the fix proposal with the reason, through the queue', async () => {
    const started = await startCheckoutWorld('scripted');
    world = started.world;
    const { world: w, medic } = started;
    const first = await awaitIncident(w, medic, ['awaiting_approval']);
    const caller = { userId: APPROVER, via: 'slack' as const };
    expect((await medic.commands.reject({ incidentId: first.id, caller, proposalHash: first.proposal!.contentHash, reason: 'wrong place' })).ok).toBe(true);
    expect((await medic.commands.rerun({ incidentId: first.id, caller })).ok).toBe(true);
    const again = await w.waitFor(async () => {
      const incident = await medic.store.get(first.id);
      return incident?.state === 'awaiting_approval' && incident.round === 1 ? incident : undefined;
    }, 'the re-run proposal');
    expect(again.decision).toBeUndefined();
    // The model was shown the rejection's reason and the proposal it replaces, fenced as data.
    expect(again.analysisContext).toContain('wrong place');
    expect(again.analysisContext).toContain('previous proposal for src/checkout/discounts.ts');
    const trail = await medic.audit.list({ incidentId: first.id });
    const count = (action: string) => trail.filter((a) => a.action === action).length;
    expect([count('step.log-window'), count('step.rca'), count('step.fix-proposal'), count('step.card'), count('incident.rerun')]).toEqual([1, 2, 2, 2, 1]);
  }, 120_000);
});
