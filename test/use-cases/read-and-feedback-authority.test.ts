/** Reading is limited to the incident's channel and configured readers; feedback counts only from approvers. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditLog } from '../../src/adapters/redis/audit-log.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import type { Incident } from '../../src/domain/incident.js';
import { createConfiguredAuthority } from '../../src/gateway/authority/authority.js';
import type { AuditLog } from '../../src/ports/audit.js';
import { createIncidentCommands } from '../../src/use-cases/create-incident-commands.js';
import type { IncidentCommands } from '../../src/use-cases/incident-commands.js';
import { buildEvent, buildIncident } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';

const member = (userId: string) => ({ userId, via: 'slack' as const });

describe('who may read incidents and label them', () => {
  let ctx: Awaited<ReturnType<typeof createTestRedis>>;
  let store: IncidentStore;
  let audit: AuditLog;
  let commands: IncidentCommands;
  const learned: string[] = [];

  beforeEach(async () => {
    ctx = await createTestRedis();
    store = createIncidentStore(ctx.redis, ctx.prefix);
    audit = createAuditLog(ctx.redis, ctx.prefix);
    learned.length = 0;
    for (const [id, channel] of [['inc-a', 'C-PAYMENTS'], ['inc-b', 'C-CHECKOUT']] as const) {
      const event = buildEvent({ id: `e-${id}`, message: `boom ${id}` });
      const incident: Incident = {
        ...buildIncident({ id, firstEvent: event }), state: 'fixed', card: { channel, ts: '1.1' },
        // inc-a's merged fix is still watched; inc-b's watch ended.
        verification: { status: id === 'inc-a' ? 'watching' : 'verified', since: '2026-11-30T09:30:00.000Z', windowMinutes: 30, looks: 1 },
      };
      await store.ingest([{ event, fingerprint: `fp-${id}`, candidate: incident }], Date.now());
    }
    commands = createIncidentCommands({
      store, audit, clock: () => new Date('2026-11-30T10:00:00Z'),
      authority: createConfiguredAuthority({ approvers: ['U-APPROVER'], elevatedApprovers: [], readers: ['U-SRE'] }),
      recordApproval: async () => undefined,
      enqueueFix: async () => undefined,
      enqueueAnalysis: async () => undefined,
      learn: async (i) => void learned.push(i.id),
    });
  });
  afterEach(async () => ctx.cleanup());

  it("any member reads an incident in its own channel, but not from a DM or another channel (audited)", async () => {
    expect((await commands.status('inc-a', { caller: member('U-ANYONE'), channel: 'C-PAYMENTS' }))?.incident.id).toBe('inc-a');
    expect(await commands.status('inc-a', { caller: member('U-ANYONE'), channel: 'D-DIRECT' })).toBeUndefined();
    expect(await commands.status('inc-a', { caller: member('U-ANYONE'), channel: 'C-CHECKOUT' })).toBeUndefined();
    expect(await commands.status('inc-a', { caller: member('U-ANYONE') })).toBeUndefined();
    const trail = await audit.list({ incidentId: 'inc-a' });
    expect(trail.filter((a) => a.action === 'incident.read').map((a) => [a.outcome, a.actor.id])).toEqual([
      ['denied', 'U-ANYONE'], ['denied', 'U-ANYONE'], ['denied', 'U-ANYONE'],
    ]);
  });

  it('configured readers and approvers read from anywhere; the CLI operator too', async () => {
    for (const userId of ['U-SRE', 'U-APPROVER']) expect((await commands.status('inc-a', { caller: member(userId), channel: 'D-DIRECT' }))?.incident.id).toBe('inc-a');
    expect((await commands.status('inc-a', { caller: { userId: 'local-operator', via: 'cli' } }))?.incident.id).toBe('inc-a');
  });

  it('list shows a member only the incidents carded in the channel they ask in, and readers all of them', async () => {
    const ids = async (userId: string, channel?: string) => (await commands.list({ caller: member(userId), channel })).map((v) => v.incident.id).sort();
    expect(await ids('U-ANYONE', 'C-CHECKOUT')).toEqual(['inc-b']);
    expect(await ids('U-ANYONE', 'D-DIRECT')).toEqual([]);
    expect(await ids('U-SRE', 'D-DIRECT')).toEqual(['inc-a', 'inc-b']);
  });

  it('the timeline is read under the same rule as status: its channel, or a reader anywhere (refusals audited)', async () => {
    const inChannel = await commands.timeline('inc-a', { caller: member('U-ANYONE'), channel: 'C-PAYMENTS' });
    expect(inChannel?.view.incident.id).toBe('inc-a');
    expect(inChannel?.trail).toEqual(await audit.list({ incidentId: 'inc-a' }));
    expect(await commands.timeline('inc-a', { caller: member('U-ANYONE'), channel: 'C-CHECKOUT' })).toBeUndefined();
    expect((await commands.timeline('inc-a', { caller: member('U-SRE'), channel: 'D-DIRECT' }))?.view.incident.id).toBe('inc-a');
    expect((await audit.list({ incidentId: 'inc-a' })).filter((a) => a.action === 'incident.read').map((a) => [a.outcome, a.actor.id])).toEqual([['denied', 'U-ANYONE']]);
  });

  it('the fixes awaiting verification are listed to whoever may read them', async () => {
    const ids = async (userId: string, channel?: string) => (await commands.awaitingVerification({ caller: member(userId), channel })).map((v) => v.incident.id);
    expect(await ids('U-SRE')).toEqual(['inc-a']);
    expect(await ids('U-ANYONE', 'C-PAYMENTS')).toEqual(['inc-a']);
    expect(await ids('U-ANYONE', 'C-CHECKOUT')).toEqual([]);
  });

  it("feedback from a non-approver is refused and audited, and teaches Medic nothing; an approver's counts", async () => {
    const refused = await commands.feedback({ incidentId: 'inc-a', caller: member('U-ANYONE'), target: 'rca', vote: 'down' });
    expect(refused).toMatchObject({ ok: false, code: 'ERR_UNAUTHORIZED' });
    expect((await store.require('inc-a')).feedback).toEqual([]);
    expect(learned).toEqual([]);
    const counted = await commands.feedback({ incidentId: 'inc-a', caller: member('U-APPROVER'), target: 'rca', vote: 'up' });
    expect(counted.ok).toBe(true);
    expect((await store.require('inc-a')).feedback.map((f) => [f.userId, f.vote])).toEqual([['U-APPROVER', 'up']]);
    expect(learned).toEqual(['inc-a']);
    const trail = await audit.list({ incidentId: 'inc-a' });
    expect(trail.filter((a) => a.action === 'incident.feedback').map((a) => [a.outcome, a.actor.id])).toEqual([['denied', 'U-ANYONE'], ['done', 'U-APPROVER']]);
  });
});
