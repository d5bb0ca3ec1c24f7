import { describe, expect, it } from 'vitest';
import { reopenOnRegression } from '../../src/use-cases/reopen-regression.js';
import { lookAtFix, type VerifyDeps } from '../../src/use-cases/verify-fix.js';
import { useIncidentStore } from '../support/incident-store-world.js';
import { MIN, T0, verifyWorld } from '../support/verify-world.js';

describe('verification after the merge', () => {
  const base = useIncidentStore();

  it('looks again while unmerged, then watches from the merge and verifies a quiet family once', async () => {
    const w = verifyWorld(base.store);
    const id = await w.pushedFix();
    expect(await lookAtFix(id, 0, w.deps())).toEqual({ next: 'again', inMs: MIN });
    expect(await lookAtFix(id, 25, w.deps())).toEqual({ next: 'again', inMs: 3 * MIN });

    w.at(T0 + 2 * MIN);
    w.merged({ merged: true, mergedAt: new Date(T0 + MIN).toISOString(), commit: 'def456' });
    const afterMerge = await lookAtFix(id, 26, w.deps());
    expect(afterMerge).toEqual({ next: 'again', inMs: 29 * MIN });
    const watching = await base.store().require(id);
    expect(watching.verification).toMatchObject({ status: 'watching', deployedAt: new Date(T0 + MIN).toISOString(), deployMarker: 'merge', mergeCommit: 'def456', countAtDeploy: 120 });
    // 120 events from T0-60 min to T0-30 min: 240 / h.
    expect(watching.verification?.beforePerHour).toBeGreaterThan(200);
    expect([...w.thread.replies.keys()]).toEqual([`verify:${id}:r0:merged`]);

    w.at(T0 + 10 * MIN);
    expect(await lookAtFix(id, 27, w.deps())).toEqual({ next: 'again', inMs: 21 * MIN });

    w.at(T0 + 31 * MIN);
    expect(await lookAtFix(id, 28, w.deps())).toEqual({ next: 'done', outcome: 'verified' });
    const verified = await base.store().require(id);
    expect(verified.state).toBe('closed');
    expect(verified.resolution).toEqual({ quietMinutes: 30, kind: 'verified' });
    expect(verified.verification).toMatchObject({ status: 'verified', eventsSince: 0 });
    const verdict = w.thread.replies.get(`verify:${id}:r0:verified`);
    expect(verdict?.text).toMatch(/Resolved — verified.*no “Payment declined for order .*” events in 30 min since the fix was deployed at 14:01 UTC \(before: \d+ \/ h\)/);

    // A second look (a retry) changes nothing and says nothing new.
    expect(await lookAtFix(id, 29, w.deps())).toEqual({ next: 'done', outcome: 'nothing-awaited' });
    expect(w.thread.replies.size).toBe(2);
    const actions = (await auditOf(base, id)).map((e) => e.action);
    expect(actions).toEqual(['fix.merged', 'fix.deployed', 'incident.verified']);
  });

  it('says still failing, and opens the incident again, when events continue after the deploy', async () => {
    const w = verifyWorld(base.store);
    const id = await w.pushedFix();
    w.merged({ merged: true, mergedAt: new Date(T0).toISOString() });
    await lookAtFix(id, 0, w.deps());
    w.at(T0 + 10 * MIN);
    await w.ingest(34, T0 + 5 * MIN);
    w.at(T0 + 30 * MIN);
    expect(await lookAtFix(id, 1, w.deps())).toEqual({ next: 'done', outcome: 'still_failing' });
    const open = await base.store().require(id);
    expect(open.state).toBe('reported');
    expect(open.fix?.branch).toMatch(/^fix\//);
    expect(open.verification).toMatchObject({ status: 'still_failing', eventsSince: 34 });
    expect(w.thread.replies.get(`verify:${id}:r0:still-failing`)?.text).toMatch(/Still failing.*34 events since the deploy at 14:00 UTC/);
    expect((await auditOf(base, id)).filter((e) => e.action === 'incident.still-failing')).toHaveLength(1);
  });

  it('waits for the configured deploy marker after the merge, and watches from the deploy', async () => {
    const w = verifyWorld(base.store, { windowMinutes: 10, deploy: { kind: 'github-deployment', environment: 'production' } });
    const id = await w.pushedFix();
    w.merged({ merged: true, mergedAt: new Date(T0).toISOString(), commit: 'def456' });
    expect(await lookAtFix(id, 0, w.deps())).toEqual({ next: 'again', inMs: MIN });
    expect((await base.store().require(id)).verification?.status).toBe('awaiting_deploy');
    // No verdict without the deploy, however long the family is quiet.
    w.at(T0 + 60 * MIN);
    expect(await lookAtFix(id, 1, w.deps())).toEqual({ next: 'again', inMs: MIN });
    w.deployed({ at: new Date(T0 + 55 * MIN).toISOString(), marker: 'deployment production #7' });
    expect(await lookAtFix(id, 2, w.deps())).toEqual({ next: 'again', inMs: 5 * MIN });
    expect((await base.store().require(id)).verification).toMatchObject({ status: 'watching', deployMarker: 'deployment production #7' });
    w.at(T0 + 66 * MIN);
    expect(await lookAtFix(id, 3, w.deps())).toEqual({ next: 'done', outcome: 'verified' });
    expect([...w.thread.replies.keys()].map((k) => k.split(':').at(-1))).toEqual(['merged', 'deployed', 'verified']);
  });

  it('reopens the same verified incident when its family comes back, and says so once', async () => {
    const w = verifyWorld(base.store);
    const id = await w.verifiedFix();
    expect((await base.store().require(id)).state).toBe('closed');

    w.at(T0 + 90 * MIN);
    const back = await w.ingest(3, T0 + 85 * MIN);
    expect(back.absorbed).toBe(3);
    expect(back.created).toBe(0);
    const reopened = await reopenOnRegression(id, { store: base.store(), deliveries: w.thread.deliveries, clock: () => new Date(T0 + 90 * MIN) });
    expect(reopened?.state).toBe('reported');
    expect(reopened?.regressions).toEqual([{ at: new Date(T0 + 90 * MIN).toISOString(), firstEventAt: new Date(T0 + 85 * MIN).toISOString(), afterBranch: `fix/${id}-20261202140000` }]);
    expect(w.thread.replies.get(`regressed:${id}:1`)?.text).toMatch(/Regressed.*first event at 15:25 UTC, after fix `fix\//);
    expect(await reopenOnRegression(id, { store: base.store(), deliveries: w.thread.deliveries, clock: () => new Date(T0 + 91 * MIN) })).toBeUndefined();
    // Open again, it keeps its family: the next events join it.
    expect((await w.ingest(2, T0 + 92 * MIN)).absorbed).toBe(2);
    expect((await auditOf(base, id)).filter((e) => e.action === 'incident.regressed')).toHaveLength(1);
  });

  it('after the regression window, a returning family opens a new incident naming the verified one', async () => {
    const w = verifyWorld(base.store);
    const id = await w.verifiedFix({ regressionHoldMs: 30 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    const later = await w.ingest(1, T0 + 120 * MIN);
    expect(later.created).toBe(1);
    const newer = (await base.store().list()).find((i) => i.id !== id);
    expect(newer?.previousIncidentId).toBe(id);
    expect((await base.store().require(id)).state).toBe('closed');
  });

  it('a look retried after a crash between the verdict and its message says it then, once', async () => {
    const w = verifyWorld(base.store);
    const id = await w.pushedFix();
    w.merged({ merged: true, mergedAt: new Date(T0).toISOString() });
    await lookAtFix(id, 0, w.deps());
    w.at(T0 + 31 * MIN);
    const crashing: VerifyDeps = { ...w.deps(), deliveries: { ...w.thread.deliveries, requestReply: async (incidentId, key, message) => { if (key.endsWith(':verified')) throw new Error('worker killed'); return w.thread.deliveries.requestReply(incidentId, key, message); } } };
    await expect(lookAtFix(id, 1, crashing)).rejects.toThrow('worker killed');
    expect((await base.store().require(id)).verification?.status).toBe('verified');
    expect(w.thread.replies.has(`verify:${id}:r0:verified`)).toBe(false);
    expect(await lookAtFix(id, 2, w.deps())).toEqual({ next: 'done', outcome: 'nothing-awaited' });
    expect(w.thread.replies.has(`verify:${id}:r0:verified`)).toBe(true);
    expect((await auditOf(base, id)).filter((e) => e.action === 'incident.verified')).toHaveLength(1);
  });
});

async function auditOf(base: ReturnType<typeof useIncidentStore>, id: string) {
  const { redis, prefix } = base.redis();
  const rows = await redis.xrange(`${prefix}audit:${id}`, '-', '+');
  return rows.map(([, fields]) => JSON.parse(fields[1]!) as { action: string });
}
