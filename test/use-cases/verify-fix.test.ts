import { describe, expect, it } from 'vitest';
import { startVerification, type VerifySettings } from '../../src/domain/verification.js';
import type { CardDeliveries } from '../../src/ports/card-delivery.js';
import type { ChatMessage } from '../../src/ports/chat.js';
import type { DeployMarker, MergeState } from '../../src/ports/code.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import { ingestEvents } from '../../src/use-cases/ingest-events.js';
import { reopenOnRegression } from '../../src/use-cases/reopen-regression.js';
import { lookAtFix, type VerifyDeps } from '../../src/use-cases/verify-fix.js';
import { buildEvent } from '../support/builders.js';
import { useIncidentStore } from '../support/incident-store-world.js';

const T0 = Date.parse('2026-12-02T14:00:00.000Z');
const MIN = 60_000;

/** The thread and the card as the delivery port receives them. */
function recordingDeliveries() {
  const replies = new Map<string, ChatMessage>();
  const cards: number[] = [];
  const deliveries: CardDeliveries = {
    requestCard: async (_id, version) => void cards.push(version),
    requestReply: async (_id, key, message) => void (replies.has(key) || replies.set(key, message)),
  };
  return { deliveries, replies, cards };
}

function world(store: () => IncidentStore, settings: VerifySettings = { windowMinutes: 30 }) {
  let now = T0;
  let merge: MergeState = { merged: false };
  let deploy: DeployMarker | undefined;
  const thread = recordingDeliveries();
  let seq = 0;
  const events = (n: number, atMs: number) =>
    Array.from({ length: n }, (_, i) => buildEvent({ id: `e${++seq}`, service: 'checkout', time: new Date(atMs + i * 1000).toISOString(), message: `Payment declined for order ${1000 + i}`, raw: 'x' }));
  const ingest = (n: number, atMs: number) => ingestEvents(events(n, atMs), { store: store(), clock: () => new Date(now), enqueueAnalysis: async () => undefined });
  const deps = (): VerifyDeps => ({
    store: store(), deliveries: thread.deliveries, settingsFor: () => settings,
    pullRequests: { mergeState: async () => merge, deployment: async () => deploy },
    clock: () => new Date(now), logger: { warn: () => undefined, info: () => undefined },
    intervalMs: MIN, maxIntervalMs: 15 * MIN, maxWaitMs: 30 * 86_400_000, regressionHoldMs: 7 * 86_400_000,
  });
  /** An incident of 120 events over the hour before T0, its fix pushed and awaited. */
  async function pushedFix(): Promise<string> {
    await ingest(60, T0 - 60 * MIN);
    await ingest(60, T0 - 30 * MIN);
    const [incident] = await store().list();
    const at = new Date(now).toISOString();
    await store().update(incident!.id, (current) => ({
      incident: { ...current, state: 'fixed', fix: { branch: `fix/${current.id}-20261202140000`, commit: 'abc123', pushStatus: 'pushed' }, verification: startVerification(at, settings) },
      audit: [],
    }));
    return incident!.id;
  }
  return {
    deps, thread, ingest, pushedFix,
    at: (ms: number) => void (now = ms),
    merged: (state: MergeState) => void (merge = state),
    deployed: (marker: DeployMarker) => void (deploy = marker),
  };
}

describe('verification after the merge', () => {
  const base = useIncidentStore();

  it('looks again while unmerged, then watches from the merge and verifies a quiet family once', async () => {
    const w = world(base.store);
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
    expect(verdict?.text).toMatch(/Resolved — verified.*no `Payment declined for order .*` events in 30 min since the fix was deployed at 14:01 UTC \(before: \d+ \/ h\)/);

    // A second look (a retry) changes nothing and says nothing new.
    expect(await lookAtFix(id, 29, w.deps())).toEqual({ next: 'done', outcome: 'nothing-awaited' });
    expect(w.thread.replies.size).toBe(2);
    const actions = (await auditOf(base, id)).map((e) => e.action);
    expect(actions).toEqual(['fix.merged', 'fix.deployed', 'incident.verified']);
  });

  it('says still failing, and opens the incident again, when events continue after the deploy', async () => {
    const w = world(base.store);
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
    expect(w.thread.replies.get(`verify:${id}:r0:still-failing`)?.text).toMatch(/Still failing.*34 .* events since the deploy at 14:00 UTC/);
    expect((await auditOf(base, id)).filter((e) => e.action === 'incident.still-failing')).toHaveLength(1);
  });

  it('waits for the configured deploy marker after the merge, and watches from the deploy', async () => {
    const w = world(base.store, { windowMinutes: 10, deploy: { kind: 'github-deployment', environment: 'production' } });
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
    const w = world(base.store);
    const id = await w.pushedFix();
    w.merged({ merged: true, mergedAt: new Date(T0).toISOString() });
    await lookAtFix(id, 0, w.deps());
    w.at(T0 + 31 * MIN);
    await lookAtFix(id, 1, w.deps());
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
    const w = world(base.store);
    const id = await w.pushedFix();
    w.merged({ merged: true, mergedAt: new Date(T0).toISOString() });
    await lookAtFix(id, 0, w.deps());
    w.at(T0 + 31 * MIN);
    await lookAtFix(id, 1, { ...w.deps(), regressionHoldMs: 30 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    const later = await w.ingest(1, T0 + 120 * MIN);
    expect(later.created).toBe(1);
    const newer = (await base.store().list()).find((i) => i.id !== id);
    expect(newer?.previousIncidentId).toBe(id);
    expect((await base.store().require(id)).state).toBe('closed');
  });

  it('a look retried after a crash between the verdict and its message says it then, once', async () => {
    const w = world(base.store);
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
