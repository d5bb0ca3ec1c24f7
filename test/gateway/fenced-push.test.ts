import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitFixPublisher } from '../../src/adapters/git/git-fix-publisher.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import { ErrorCode, MedicError } from '../../src/domain/errors.js';
import { isDegradingError } from '../../src/gateway/degradation/circuit-breaker.js';
import { createLogger } from '../../src/observability/logger.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { runFix } from '../../src/pipeline/run-fix.js';
import { createFixProposal, fixBranchName } from '../../src/domain/fix.js';
import { createTargetLocks } from '../../src/gateway/effect-gate/approval-store.js';
import { recordFixApproval } from '../../src/gateway/effect-gate/fix-approval.js';
import { createGatedPorts } from '../../src/gateway/gated-ports.js';
import { SAMPLE_FILES, buildRemote, remoteBranches, type TestRemote } from '../git/build-remote.js';
import { buildIncident } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';
import { APPROVER, buildHarness } from './support.js';

const incidentId = 'inc-7';
const FILE = 'src/checkout/discounts.ts';
const FIXED = 'export function perItem(amount: number, count: number): number {\n  return count === 0 ? 0 : Math.floor(amount / count);\n}\n';
const pipeline = { caller: { kind: 'pipeline' as const }, incidentId, traceId: 'trace-7' };
/** The gateway's lock on this incident's code-host writes (`gw:lock:<upstream>:<target>`). */
const lockKey = (prefix: string) => `${prefix}gw:lock:code-host:${incidentId}`;

describe('the fix push checks the write lease at the resource', () => {
  let env: Awaited<ReturnType<typeof createTestRedis>>;
  let remote: TestRemote;
  beforeEach(async () => {
    env = await createTestRedis();
    remote = buildRemote();
  });
  afterEach(async () => {
    remote.cleanup();
    await env.cleanup();
  });

  /** The gated publisher of a worker that "pauses" after its commit, at the seam before the push. */
  async function pausedPublisher(pause: () => Promise<void>, lockLeaseMs?: number) {
    const publisher = createGitFixPublisher({ remoteUrl: remote.bare, branch: 'main', workDir: join(remote.root, 'data', 'repo'), worktreeRoot: mkdtempSync(join(remote.root, 'wt-')), beforePush: pause });
    const h = buildHarness(env.redis, env.prefix, { deps: { publisher }, ...(lockLeaseMs ? { lockLeaseMs } : {}) });
    const proposal = createFixProposal({ file: FILE, before: SAMPLE_FILES[FILE] ?? '', after: FIXED, explanation: 'guard the empty cart' });
    await recordFixApproval(h.approvals, { incidentId, proposal, approverId: APPROVER });
    return { h, proposal, gated: createGatedPorts(h.gateway, { publisher }, pipeline) };
  }

  /** While this worker is paused its lease runs out; another worker takes the lock (a larger fence) and writes first. */
  async function laterHolderWrites() {
    await env.redis.del(lockKey(env.prefix));
    const later = await createTargetLocks(env.redis, env.prefix, { leaseMs: 60_000 }).acquire(`code-host:${incidentId}`);
    expect(await later!.admit()).toBe(true);
    await later!.release();
  }

  /** A publish through the gateway by a worker paused before its push. */
  async function publishPausedAt(pause: () => Promise<void>, lockLeaseMs?: number) {
    const { h, proposal, gated } = await pausedPublisher(pause, lockLeaseMs);
    const branch = fixBranchName(incidentId, '2026-03-01T10:20:30Z');
    const outcome = await gated.publisher!.publish({ incidentId, branch, proposal, message: 'Guard the empty cart' }).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    const calls = (await h.audit.list({ incidentId })).filter((a) => a.details?.tool === 'git.publish-fix');
    return { outcome, calls, branch };
  }

  it('refuses a holder whose lease was taken over and written by a later holder, and audits it', async () => {
    const { outcome, calls, branch } = await publishPausedAt(laterHolderWrites);
    expect(outcome.ok).toBe(false);
    const refused = (outcome as { error: MedicError }).error;
    expect(refused.message).toMatch(/Refused push for inc-7: this worker's lease \(fence \d+\) was taken over/);
    // Retried, never the fix's end; and workers' coordination is no sign of the code host's load.
    expect(refused).toMatchObject({ code: ErrorCode.StaleLease, transient: true });
    expect(isDegradingError(refused)).toBe(false);
    expect(remoteBranches(remote.bare).has(branch)).toBe(false);
    expect(calls.map((c) => c.outcome)).toEqual(['failed']);
    expect(calls[0]!.reason).toMatch(/fence \d+/);
  });

  it('leaves the fix to the holder that wrote: the refused worker ends nothing as failed and records no step', async () => {
    const { h, proposal, gated } = await pausedPublisher(laterHolderWrites);
    const store = createIncidentStore(env.redis, env.prefix);
    const incident = buildIncident({ id: incidentId, fingerprint: `fp-${incidentId}` });
    await store.ingest([{ event: incident.firstEvent, fingerprint: incident.fingerprint, candidate: incident }], Date.now());
    const decision = { verdict: 'approved' as const, actor: { kind: 'user' as const, id: APPROVER, name: 'approver' }, proposalHash: proposal.contentHash, at: '2026-03-01T10:20:30Z' };
    await store.update(incidentId, (current) => ({ incident: { ...current, state: 'approved', proposal, decision }, audit: [] }));
    const never = async () => Promise.reject(new Error('not called'));
    const cards: string[] = [];
    const run = runFix(incidentId, proposal.contentHash, {
      store, publisher: gated.publisher!, pullRequests: { open: never, check: never },
      deliveries: { requestCard: async (id) => void cards.push(id), requestReply: never },
      clock: () => new Date(), logger: createLogger({ level: 'silent' }), metrics: createMetrics(),
    });
    await expect(run).rejects.toMatchObject({ code: ErrorCode.StaleLease, transient: true });
    const after = await store.require(incidentId);
    expect(after.state).toBe('fixing');
    expect(after.fix).toBeUndefined();
    expect(after.steps.publish).toBeUndefined();
    const actions = (await h.audit.list({ incidentId })).map((a) => a.action);
    expect(actions).toContain('fix.start');
    expect(actions).not.toContain('fix.finish');
  });

  it('pushes when no later holder has written, and leaves its fence as the latest admitted', async () => {
    const { outcome, branch } = await publishPausedAt(async () => undefined);
    expect(outcome).toMatchObject({ ok: true, value: { branch, pushStatus: 'pushed' } });
    expect(remoteBranches(remote.bare).has(branch)).toBe(true);
    // A stale holder of an earlier grant comes back: refused, though it still holds a lease object.
    const locks = createTargetLocks(env.redis, env.prefix, { leaseMs: 60_000 });
    const admitted = Number(await env.redis.get(`${lockKey(env.prefix)}:admitted`));
    const next = await locks.acquire(`code-host:${incidentId}`);
    expect(next!.fence).toBe(admitted + 1);
    expect(await next!.admit()).toBe(true);
    await env.redis.set(`${lockKey(env.prefix)}:admitted`, String(next!.fence + 5));
    expect(await next!.admit()).toBe(false);
    await next!.release();
  });

  it('stops the git work before the push once a renewal finds the lease lost', async () => {
    const { outcome, calls, branch } = await publishPausedAt(async () => {
      // Another worker holds the lock now; the next renewal (a third of the 300 ms lease) sees it.
      await env.redis.set(lockKey(env.prefix), 'other-worker|999', 'PX', 60_000);
      await new Promise((resolve) => setTimeout(resolve, 400));
    }, 300);
    expect(outcome.ok).toBe(false);
    expect(String((outcome as { error: Error }).error.message)).toMatch(/stopped before the push: lost the lease on .*gw:lock:code-host:inc-7.*Nothing was pushed/);
    expect(remoteBranches(remote.bare).has(branch)).toBe(false);
    expect(calls.map((c) => c.outcome)).toEqual(['failed']);
  });
});
