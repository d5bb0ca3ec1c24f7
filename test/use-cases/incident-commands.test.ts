import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditLog } from '../../src/adapters/redis/audit-log.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import { createFixProposal } from '../../src/domain/fix.js';
import type { Incident } from '../../src/domain/incident.js';
import { createIncidentCommands } from '../../src/use-cases/create-incident-commands.js';
import type { IncidentCommands } from '../../src/use-cases/incident-commands.js';
import { dispatchPendingFixOrders } from '../../src/use-cases/dispatch-fix-orders.js';
import { buildEvent, buildIncident } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';

let ctx: Awaited<ReturnType<typeof createTestRedis>>;
let store: IncidentStore;
let commands: IncidentCommands;
const effects: string[] = [];
const proposal = createFixProposal({ file: 'src/a.ts', before: 'a\n', after: 'b\n', explanation: 'fix' });
const approver = { userId: 'U_OK', via: 'slack' as const };

beforeEach(async () => {
  ctx = await createTestRedis();
  store = createIncidentStore(ctx.redis, ctx.prefix);
  effects.length = 0;
  const event = buildEvent({ id: 'e1' });
  const incident: Incident = { ...buildIncident({ firstEvent: event }), state: 'awaiting_approval', proposal, card: { channel: 'C1', ts: '1.1' } };
  await store.ingest([{ event, fingerprint: 'fp', candidate: incident }], Date.now());
  commands = createIncidentCommands({
    store, audit: createAuditLog(ctx.redis, ctx.prefix), clock: () => new Date('2026-11-30T10:00:00Z'),
    authority: { resolve: async (id) => ({ approver: id === 'U_OK', elevated: false, reader: id === 'U_OK' }) },
    recordApproval: async (i, who) => void effects.push(`record:${i.id}:${who}`),
    enqueueFix: async (id, hash, round) => void effects.push(`fix:${id}:${hash.slice(0, 8)}${round ? `:r${round}` : ''}`),
    enqueueAnalysis: async (id, round) => void effects.push(`analyze:${id}:${round}`),
    announce: async (i) => void effects.push(`announce:${i.state}`),
    learn: async (i) => void effects.push(`learn:${i.state}`),
  });
});
afterEach(async () => ctx.cleanup());

describe('the incident use-cases', () => {
  it('refuse a non-approver, audit the refusal and change nothing', async () => {
    const result = await commands.approve({ incidentId: 'inc-test', caller: { userId: 'U_NOPE', via: 'slack' }, proposalHash: proposal.contentHash });
    expect(result).toMatchObject({ ok: false, code: 'ERR_UNAUTHORIZED' });
    expect((await store.require('inc-test')).state).toBe('awaiting_approval');
    expect(effects).toEqual([]);
    const audit = await createAuditLog(ctx.redis, ctx.prefix).list({ incidentId: 'inc-test' });
    expect(audit.map((a) => [a.action, a.outcome, a.actor.id])).toEqual([['incident.approve', 'denied', 'U_NOPE']]);
  });

  it('bind the approval to the proposal shown: another hash is refused as stale', async () => {
    const result = await commands.approve({ incidentId: 'inc-test', caller: approver, proposalHash: 'f'.repeat(64) });
    expect(result).toMatchObject({ ok: false, code: 'ERR_STALE_APPROVAL' });
    expect(effects).toEqual([]);
  });

  it('approve once: a double click changes nothing and enqueues the same job id again', async () => {
    const first = await commands.approve({ incidentId: 'inc-test', caller: approver, proposalHash: proposal.contentHash });
    const second = await commands.approve({ incidentId: 'inc-test', caller: approver, proposalHash: proposal.contentHash });
    expect([first.ok, second.ok]).toEqual([true, true]);
    expect(second.ok && second.message).toMatch(/Already approved/);
    const incident = await store.require('inc-test');
    expect(incident.state).toBe('approved');
    expect(incident.decision).toMatchObject({ verdict: 'approved', actor: { id: 'U_OK' }, proposalHash: proposal.contentHash });
    // The retry writes the approval record again (healing one a crash lost) and re-adds the same job id.
    expect(effects).toEqual([`record:inc-test:U_OK`, `fix:inc-test:${proposal.contentHash.slice(0, 8)}`, 'announce:approved', `record:inc-test:U_OK`, `fix:inc-test:${proposal.contentHash.slice(0, 8)}`]);
    expect(await store.pendingOrders()).toEqual([]);
  });

  it('a crash right after the decision leaves the fix order in the outbox, and draining it records the approval and enqueues the job', async () => {
    const crashing = createIncidentCommands({
      store, audit: createAuditLog(ctx.redis, ctx.prefix), clock: () => new Date('2026-11-30T10:00:00Z'),
      authority: { resolve: async () => ({ approver: true, elevated: false, reader: true }) },
      recordApproval: async () => { throw new Error('killed after the decision was written'); },
      enqueueFix: async () => void effects.push('never'),
      enqueueAnalysis: async () => undefined,
    });
    await expect(crashing.approve({ incidentId: 'inc-test', caller: approver, proposalHash: proposal.contentHash })).rejects.toThrow(/killed/);
    expect((await store.require('inc-test')).state).toBe('approved');
    expect(await store.pendingOrders()).toEqual([{ kind: 'apply-fix', incidentId: 'inc-test', proposalHash: proposal.contentHash, round: 0, approverId: 'U_OK' }]);
    const drained = await dispatchPendingFixOrders({
      store,
      recordApproval: async (i, who) => void effects.push(`record:${i.id}:${who}`),
      enqueueFix: async (id, hash) => void effects.push(`fix:${id}:${hash.slice(0, 8)}`),
    });
    expect(drained).toBe(1);
    expect(effects).toEqual([`record:inc-test:U_OK`, `fix:inc-test:${proposal.contentHash.slice(0, 8)}`]);
    expect(await store.pendingOrders()).toEqual([]);
  });

  it('an order drained after the fix started only completes the entry: no second approval record', async () => {
    await commands.approve({ incidentId: 'inc-test', caller: approver, proposalHash: proposal.contentHash });
    effects.length = 0;
    await store.update('inc-test', (i) => ({ incident: { ...i, state: 'fixing' }, audit: [], order: { kind: 'apply-fix', incidentId: 'inc-test', proposalHash: proposal.contentHash, round: 0, approverId: 'U_OK' } }));
    await dispatchPendingFixOrders({ store, recordApproval: async () => void effects.push('record'), enqueueFix: async () => void effects.push('fix') });
    expect(effects).toEqual([]);
    expect(await store.pendingOrders()).toEqual([]);
  });

  it('reject with a reason, announce it and learn from it; a later approve is refused', async () => {
    const rejected = await commands.reject({ incidentId: 'inc-test', caller: approver, proposalHash: proposal.contentHash, reason: 'wrong file' });
    expect(rejected.ok).toBe(true);
    expect((await store.require('inc-test')).decision?.reason).toBe('wrong file');
    expect(effects).toEqual(['learn:rejected', 'announce:rejected']);
    const late = await commands.approve({ incidentId: 'inc-test', caller: approver, proposalHash: proposal.contentHash });
    expect(late).toMatchObject({ ok: false, code: 'ERR_INVALID_TRANSITION' });
  });

  it('re-runs the analysis and the fix proposal of a rejected incident, with the rejection reason and the previous proposal for the analyst', async () => {
    const done = Object.fromEntries(['intake', 'log-window', 'similar-docs', 'recent-changes', 'rca', 'recommend', 'fix-proposal', 'card'].map((s) => [s, { at: 't' }]));
    await store.update('inc-test', (i) => ({ incident: { ...i, steps: done }, audit: [] }));
    await commands.reject({ incidentId: 'inc-test', caller: approver, proposalHash: proposal.contentHash, reason: 'wrong file: the guard belongs in the caller' });
    const rerun = await commands.rerun({ incidentId: 'inc-test', caller: approver });
    expect(rerun.ok).toBe(true);
    const incident = await store.require('inc-test');
    // The evidence stays; the analysis and the fix are redone.
    expect([incident.state, incident.round, Object.keys(incident.steps), incident.proposal, incident.rca]).toEqual(['analyzing', 1, ['intake', 'log-window', 'similar-docs', 'recent-changes'], undefined, undefined]);
    expect(incident.review).toMatchObject({ reason: 'wrong file: the guard belongs in the caller', previousProposal: { file: 'src/a.ts', diff: proposal.diff, contentHash: proposal.contentHash, verdict: 'rejected' }, by: 'U_OK' });
    expect(effects.at(-1)).toBe('analyze:inc-test:1');
  });

  it('a reason typed with /medic fix wins over the rejection\'s', async () => {
    await commands.reject({ incidentId: 'inc-test', caller: approver, proposalHash: proposal.contentHash, reason: 'old reason' });
    await commands.rerun({ incidentId: 'inc-test', caller: approver, reason: 'the timeout is the real cause' });
    expect((await store.require('inc-test')).review?.reason).toBe('the timeout is the real cause');
  });

  it('asks to confirm a re-run of an incident whose branch was pushed, and keeps the branch record when confirmed', async () => {
    const fix = { branch: 'fix/inc-test-20261130100000', commit: 'c0ffee', pushStatus: 'pushed' as const };
    await store.update('inc-test', (i) => ({ incident: { ...i, state: 'fixed', fix }, audit: [] }));
    const asked = await commands.rerun({ incidentId: 'inc-test', caller: approver });
    expect(asked).toMatchObject({ ok: false, code: 'ERR_CONFIRM_REQUIRED', message: expect.stringContaining(fix.branch) });
    expect((await store.require('inc-test')).state).toBe('fixed');
    const confirmed = await commands.rerun({ incidentId: 'inc-test', caller: approver, confirmed: true, reason: 'checks failed' });
    expect(confirmed.ok).toBe(true);
    const incident = await store.require('inc-test');
    expect(incident.state).toBe('analyzing');
    expect(incident.fix).toBeUndefined();
    expect(incident.earlierFixes).toEqual([fix]);
    const trail = await createAuditLog(ctx.redis, ctx.prefix).list({ incidentId: 'inc-test' });
    expect(trail.find((a) => a.action === 'incident.rerun')?.details).toMatchObject({ confirmed: true, keptBranch: fix.branch });
  });

  it('record feedback once per person and target', async () => {
    await commands.feedback({ incidentId: 'inc-test', caller: approver, target: 'rca', vote: 'up' });
    await commands.feedback({ incidentId: 'inc-test', caller: approver, target: 'rca', vote: 'down' });
    expect((await store.require('inc-test')).feedback.map((f) => f.vote)).toEqual(['down']);
  });
});
