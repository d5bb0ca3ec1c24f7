/**
 * Incident writes by a lease holder check its fence in the script that writes: a holder that
 * paused past its lease, while a later holder took the lock and wrote, is refused when it resumes
 * (ERR_STALE_LEASE, audited as denied), and the record, its indexes and its trail stay the later
 * holder's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditLog } from '../../src/adapters/redis/audit-log.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import { tryAcquireLease, type Lease } from '../../src/adapters/redis/leased-lock.js';
import { PIPELINE_ACTOR } from '../../src/domain/audit.js';
import { createIncident, transition, type Incident, type IncidentState } from '../../src/domain/incident.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import { buildEvent } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';

let ctx: Awaited<ReturnType<typeof createTestRedis>>;
let store: IncidentStore;
const held: Lease[] = [];
const LOCK = 'card:lock:{inc-fenced}';

beforeEach(async () => {
  ctx = await createTestRedis();
  store = createIncidentStore(ctx.redis, ctx.prefix);
  const event = buildEvent({ id: 'e1', time: '2026-11-30T09:00:00.000Z' });
  await store.ingest([{ event, fingerprint: 'fenced', candidate: createIncident({ id: 'inc-fenced', fingerprint: 'fenced', title: 't', event, at: event.time }) }], Date.now());
});
afterEach(async () => {
  await Promise.all(held.splice(0).map((lease) => lease.release()));
  await ctx.cleanup();
});

async function acquire(): Promise<Lease> {
  const lease = await tryAcquireLease(ctx.redis, `${ctx.prefix}${LOCK}`, { leaseMs: 60_000 });
  expect(lease).toBeDefined();
  held.push(lease!);
  return lease!;
}

/** The holder's write: a state transition and its audit record, carrying its fence. */
function move(lease: Lease, to: IncidentState, action: string) {
  const at = new Date().toISOString();
  return store.update('inc-fenced', (current: Incident) => ({ incident: transition(current, to, at), audit: [{ at, action, outcome: 'done', actor: PIPELINE_ACTOR }] }), undefined, { fence: { lock: LOCK, fence: lease.fence } });
}

describe('an incident write by a lease holder', () => {
  it('is refused when its holder resumes after a later holder took the lease and wrote, and the refusal is audited', async () => {
    const paused = await acquire();
    // While it is paused its lease runs out, and another worker takes the lock (a larger fence) and writes.
    await ctx.redis.del(`${ctx.prefix}${LOCK}`);
    const later = await acquire();
    expect(later.fence).toBe(paused.fence + 1);
    const written = await move(later, 'analyzing', 'analysis.start');

    await expect(move(paused, 'closed', 'incident.close')).rejects.toMatchObject({ code: 'ERR_STALE_LEASE', message: expect.stringMatching(/Refused the write to inc-fenced: this worker's lease on card:lock:\{inc-fenced\} \(fence \d+\) was taken over/) });
    expect(await store.require('inc-fenced')).toEqual(written);
    expect(await store.countByState()).toMatchObject({ analyzing: 1 });
    expect((await store.list({ states: ['closed'] })).map((i) => i.id)).toEqual([]);
    const trail = await createAuditLog(ctx.redis, ctx.prefix).list({ incidentId: 'inc-fenced' });
    expect(trail.map((a) => [a.action, a.outcome])).toEqual([['analysis.start', 'done'], ['incident.write', 'denied']]);
    expect(trail[1]?.details).toMatchObject({ lock: LOCK, fence: paused.fence, code: 'ERR_STALE_LEASE', state: 'closed', actions: ['incident.close'] });

    // The current holder goes on writing; a write without a lease is not fenced.
    expect((await move(later, 'reported', 'analysis.finish')).state).toBe('reported');
    const at = new Date().toISOString();
    expect((await store.update('inc-fenced', (current) => ({ incident: { ...current, updatedAt: at }, audit: [] }))).version).toBe(written.version + 2);
  });

  it('writes when no later holder has written, and its fence becomes the one a stale holder is held to', async () => {
    const first = await acquire();
    expect((await move(first, 'analyzing', 'analysis.start')).state).toBe('analyzing');
    expect(Number(await ctx.redis.get(`${ctx.prefix}${LOCK}:admitted`))).toBe(first.fence);
    await first.release();
    const second = await acquire();
    expect((await move(second, 'reported', 'analysis.finish')).state).toBe('reported');
    await expect(move(first, 'closed', 'incident.close')).rejects.toMatchObject({ code: 'ERR_STALE_LEASE' });
    expect((await store.require('inc-fenced')).state).toBe('reported');
  });
});
