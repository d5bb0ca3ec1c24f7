import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exited } from '../support/crash-drill.js';
import { fixBranches } from '../support/git-remote.js';
import { APPROVER, ROOT, awaitIncident, checkoutErrorLines, createWorld } from '../support/medic-world.js';
import { TEST_REDIS_URL } from '../support/redis.js';

/** A process that takes `key` (a leased lock) and holds it until killed, like a worker caught mid-push. */
function holder(key: string, leaseMs: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/support/hold-lease.ts'), TEST_REDIS_URL, key, String(leaseMs)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => (chunk.toString().startsWith('held') ? done(child) : undefined));
    child.once('exit', (code) => fail(new Error(`holder exited early (${code})`)));
  });
}

describe('a worker SIGKILLed while holding the in-flight and data locks', () => {
  it('frees both within a lease, so the retried fix job on another worker pushes exactly one branch', async () => {
    const world = await createWorld({ llm: 'scripted' });
    const held: ChildProcess[] = [];
    try {
      await world.writeLogs('shop.jsonl', checkoutErrorLines(1));
      const operator = await world.startMedic();
      world.spawnWorker({ MEDIC_GATEWAY_LOCK_MS: '1000', MEDIC_DATA_LOCK_LEASE_MS: '1000' });
      const waiting = await awaitIncident(world, operator, ['awaiting_approval']);
      // The dead worker's locks: the incident's "action in flight" lock and the shared data lock.
      held.push(await holder(`${world.prefix}gw:lock:code-host:${waiting.id}`, 1000));
      held.push(await holder(`${world.prefix}lock:data:${resolve(world.env.MEDIC_DATA_DIR!)}`, 1000));
      const approved = await operator.commands.approve({ incidentId: waiting.id, proposalHash: waiting.proposal!.contentHash, caller: { userId: APPROVER, via: 'slack' } });
      expect(approved.ok).toBe(true);
      // The fix job finds the lock taken and is refused (a transient conflict it retries) ...
      const refused = await world.waitFor(async () => (await operator.audit.list({ incidentId: waiting.id })).find((a) => a.action === 'gateway.tool-call' && a.details?.tool === 'git.publish-fix' && a.outcome === 'denied'), 'the refused push', 30_000);
      expect(refused.reason).toMatch(/in flight/);
      // ... until the holder dies; its retry takes over within a lease.
      for (const child of held) child.kill('SIGKILL');
      expect(await Promise.all(held.map(exited))).toEqual(['SIGKILL', 'SIGKILL']);
      const done = await world.waitFor(async () => (await operator.store.list({ states: ['fixed', 'fix_failed'] }))[0], 'the fix', 60_000);
      expect([done.state, done.error]).toEqual(['fixed', undefined]);
      expect(fixBranches(join(world.env.MEDIC_DATA_DIR!, 'remotes/sample-service.git'))).toEqual([done.fix!.branch]);
    } finally {
      for (const child of held) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await world.close();
    }
  }, 120_000);
});
