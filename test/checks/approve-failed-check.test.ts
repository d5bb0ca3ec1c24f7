/** A proposal whose check failed is refused server-side: a forged or replayed Approve click changes nothing. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditLog } from '../../src/adapters/redis/audit-log.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import { createFixProposal } from '../../src/domain/fix.js';
import type { Incident } from '../../src/domain/incident.js';
import type { ProposalCheck } from '../../src/domain/proposal-check.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import { createIncidentCommands } from '../../src/use-cases/create-incident-commands.js';
import type { IncidentCommands } from '../../src/use-cases/incident-commands.js';
import { buildEvent, buildIncident } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';

let ctx: Awaited<ReturnType<typeof createTestRedis>>;
let store: IncidentStore;
let commands: IncidentCommands;
const effects: string[] = [];
const proposal = createFixProposal({ file: 'src/a.ts', before: 'a\n', after: 'b\n', explanation: 'fix' });
const approver = { userId: 'U_OK', via: 'slack' as const };
const failed: ProposalCheck = { status: 'failed', contentHash: proposal.contentHash, at: '2026-11-30T09:59:00Z', command: 'npm run build', exitCode: 2, output: 'error TS2322' };

async function seed(proposalCheck: ProposalCheck | undefined): Promise<void> {
  const event = buildEvent({ id: 'e1' });
  const incident: Incident = { ...buildIncident({ firstEvent: event }), state: 'awaiting_approval', proposal, ...(proposalCheck ? { proposalCheck } : {}), card: { channel: 'C1', ts: '1.1' } };
  await store.ingest([{ event, fingerprint: 'fp', candidate: incident }], Date.now());
}

beforeEach(async () => {
  ctx = await createTestRedis();
  store = createIncidentStore(ctx.redis, ctx.prefix);
  effects.length = 0;
  commands = createIncidentCommands({
    store, audit: createAuditLog(ctx.redis, ctx.prefix), clock: () => new Date('2026-11-30T10:00:00Z'),
    authority: { resolve: async (id) => ({ approver: id === 'U_OK', elevated: false, reader: id === 'U_OK' }) },
    recordApproval: async (i, who) => void effects.push(`record:${i.id}:${who}`),
    enqueueFix: async (id) => void effects.push(`fix:${id}`),
    enqueueAnalysis: async (id, round) => void effects.push(`analyze:${id}:${round}`),
    announce: async (i) => void effects.push(`announce:${i.state}`),
  });
});
afterEach(async () => ctx.cleanup());

describe('approving a proposal whose check failed', () => {
  it('is refused and audited, with nothing recorded or enqueued', async () => {
    await seed(failed);
    const result = await commands.approve({ incidentId: 'inc-test', caller: approver, proposalHash: proposal.contentHash });
    expect(result).toMatchObject({ ok: false, code: 'ERR_FIX_REFUSED', message: expect.stringContaining('`npm run build` failed on this proposal (exit 2)') });
    expect((await store.require('inc-test')).state).toBe('awaiting_approval');
    expect(effects).toEqual([]);
    expect(await store.pendingOrders()).toEqual([]);
    const audit = await createAuditLog(ctx.redis, ctx.prefix).list({ incidentId: 'inc-test' });
    expect(audit.map((a) => [a.action, a.outcome, a.actor.id])).toEqual([['incident.approve', 'denied', 'U_OK']]);
  });

  it('is refused when the check timed out or could not run, and Reject still works', async () => {
    await seed({ ...failed, status: 'timed-out', exitCode: undefined, reason: 'killed after 120 s' });
    expect(await commands.approve({ incidentId: 'inc-test', caller: approver, proposalHash: proposal.contentHash })).toMatchObject({ ok: false, code: 'ERR_FIX_REFUSED' });
    expect(await commands.reject({ incidentId: 'inc-test', caller: approver, proposalHash: proposal.contentHash, reason: 'does not build' })).toMatchObject({ ok: true });
    expect((await store.require('inc-test')).state).toBe('rejected');
  });

  it('is allowed when the check passed, or when the service has no check command', async () => {
    await seed({ ...failed, status: 'passed', exitCode: 0 });
    expect(await commands.approve({ incidentId: 'inc-test', caller: approver, proposalHash: proposal.contentHash })).toMatchObject({ ok: true });
    expect(effects).toContain('fix:inc-test');
  });

  it('is allowed with "not checked"', async () => {
    await seed({ status: 'not-checked', contentHash: proposal.contentHash, at: '2026-11-30T09:59:00Z', reason: 'the service catalog names no check command for shop' });
    expect(await commands.approve({ incidentId: 'inc-test', caller: approver, proposalHash: proposal.contentHash })).toMatchObject({ ok: true });
  });
});
