import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLease, tryAcquireLease } from '../../src/adapters/redis/leased-lock.js';
import { createTargetLocks } from '../../src/gateway/effect-gate/approval-store.js';
import { exited } from '../support/crash-drill.js';
import { ROOT } from '../support/medic-world.js';
import { createTestRedis, TEST_REDIS_URL } from '../support/redis.js';

type TestRedis = Awaited<ReturnType<typeof createTestRedis>>;
const LEASE_MS = 1_000;

/** Starts a process holding `key` and resolves once it says it holds it. */
function holdInChild(key: string, children: ChildProcess[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/support/hold-lease.ts'), TEST_REDIS_URL, key, String(LEASE_MS)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => (chunk.toString().startsWith('held') ? resolve(child) : undefined));
    child.once('exit', (code) => reject(new Error(`holder exited early (${code})`)));
  });
}

describe('leased locks', () => {
  let t: TestRedis;
  const children: ChildProcess[] = [];
  beforeEach(async () => void (t = await createTestRedis()));
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await t.cleanup();
  });

  it('stays held past many leases while its holder lives, and frees within a lease once it is SIGKILLed', async () => {
    const key = `${t.prefix}lock:data`;
    const holder = await holdInChild(key, children);
    // Four leases later the live holder has renewed it: nobody else gets it.
    expect(await acquireLease(t.redis, key, { leaseMs: LEASE_MS, waitMs: 4 * LEASE_MS })).toBeUndefined();
    const [owner, fence] = ((await t.redis.get(key)) ?? '').split('|');
    expect(owner).toMatch(new RegExp(`:${holder.pid}:`));
    holder.kill('SIGKILL');
    expect(await exited(holder)).toBe('SIGKILL');
    const next = await acquireLease(t.redis, key, { leaseMs: LEASE_MS, waitMs: 3 * LEASE_MS });
    expect(next).toBeDefined();
    // The fencing token of the new holder is larger than the dead one's.
    expect(next!.fence).toBeGreaterThan(Number(fence));
    await next!.release();
    expect(await t.redis.exists(key)).toBe(0);
  }, 30_000);

  it('tells its holder when the lock was taken from it, and a stale release frees nothing', async () => {
    const key = `${t.prefix}gw:lock:x`;
    const first = (await tryAcquireLease(t.redis, key, { leaseMs: 300 }))!;
    await t.redis.set(key, 'someone-else|99', 'PX', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(first.lost.aborted).toBe(true);
    await first.release();
    expect(await t.redis.get(key)).toBe('someone-else|99');
  });

  it('the gateway target lock: one holder at a time, and free again on release', async () => {
    const locks = createTargetLocks(t.redis, t.prefix, { leaseMs: LEASE_MS });
    const a = await locks.acquire('code-host:INC-1');
    expect(a).toBeDefined();
    expect(await locks.acquire('code-host:INC-1')).toBeUndefined();
    expect(await locks.acquire('code-host:INC-2')).toBeDefined();
    await a!.release();
    const b = await locks.acquire('code-host:INC-1');
    expect(b!.fence).toBeGreaterThan(a!.fence);
  });
});
