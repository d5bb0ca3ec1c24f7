import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIncidentCommands } from '../../src/use-cases/create-incident-commands.js';
import { exited } from '../support/crash-drill.js';
import { fixBranches } from '../support/git-remote.js';
import { APPROVER, awaitIncident, checkoutErrorLines, createWorld } from '../support/medic-world.js';

// The sweep runs every second and treats one second without progress as stuck.
const FAST_SWEEP = { MEDIC_SWEEP_INTERVAL_S: '1', MEDIC_STUCK_AFTER_S: '1' };

describe('an approval interrupted between its writes', () => {
  it('a web killed right after writing the decision still ends in exactly one fix branch', async () => {
    const world = await createWorld({ llm: 'scripted' });
    try {
      await world.writeLogs('shop.jsonl', checkoutErrorLines(1));
      const operator = await world.startMedic();
      const first = world.spawnWorker(FAST_SWEEP);
      const waiting = await awaitIncident(world, operator, ['awaiting_approval']);
      // The process dies after the decision is persisted and before anything else is written.
      const dying = createIncidentCommands({
        store: operator.store, audit: operator.audit, clock: () => new Date(),
        authority: { resolve: async (id) => ({ approver: id === APPROVER, elevated: false, reader: true }) },
        recordApproval: () => Promise.reject(new Error('killed')),
        enqueueFix: () => Promise.reject(new Error('killed')),
        enqueueAnalysis: () => Promise.reject(new Error('killed')),
      });
      await expect(dying.approve({ incidentId: waiting.id, proposalHash: waiting.proposal!.contentHash, caller: { userId: APPROVER, via: 'slack' } })).rejects.toThrow('killed');
      expect((await operator.store.require(waiting.id)).state).toBe('approved');
      expect(await operator.queues.fix.count()).toBe(0);
      // The worker that was running all along may die too: a fresh one drains the outbox as it starts.
      first.kill('SIGKILL');
      await exited(first);
      world.spawnWorker(FAST_SWEEP);
      const fixed = await world.waitFor(async () => (await operator.store.list({ states: ['fixed', 'fix_failed'] }))[0], 'the fix', 60_000);
      expect(fixed.state).toBe('fixed');
      expect(fixBranches(join(world.env.MEDIC_DATA_DIR!, 'remotes/sample-service.git'))).toEqual([fixed.fix!.branch]);
      expect(await operator.store.pendingOrders()).toEqual([]);
    } finally {
      await world.close();
    }
  }, 120_000);

  it('an approved incident with no order, no approval record and no job is resumed by the sweep', async () => {
    const world = await createWorld({ llm: 'scripted' });
    try {
      await world.writeLogs('shop.jsonl', checkoutErrorLines(1));
      const operator = await world.startMedic();
      world.spawnWorker(FAST_SWEEP);
      const waiting = await awaitIncident(world, operator, ['awaiting_approval']);
      // What an older release (three separate writes) left behind when it crashed after the first.
      const at = new Date().toISOString();
      await operator.store.update(waiting.id, (current) => ({
        incident: { ...current, state: 'approved', updatedAt: at, decision: { verdict: 'approved', actor: { kind: 'user', id: APPROVER }, proposalHash: current.proposal!.contentHash, at } },
        audit: [],
      }));
      const fixed = await world.waitFor(async () => (await operator.store.list({ states: ['fixed', 'fix_failed'] }))[0], 'the fix resumed by the sweep', 60_000);
      expect(fixed.state).toBe('fixed');
      const trail = await operator.audit.list({ incidentId: waiting.id });
      expect(trail.filter((a) => a.action === 'step.publish')).toHaveLength(1);
    } finally {
      await world.close();
    }
  }, 120_000);
});
