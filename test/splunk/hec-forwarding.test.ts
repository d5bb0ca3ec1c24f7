import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forwardAudit } from '../../jobs/forward-audit.js';
import { createAuditLog } from '../../src/adapters/redis/audit-log.js';
import { createHecClient } from '../../src/adapters/splunk/hec-client.js';
import { PIPELINE_ACTOR } from '../../src/domain/audit.js';
import { startHecServer, type LoopbackHec } from '../loopback/hec-server.js';
import { createTestRedis } from '../support/redis.js';

const TOKEN = '0f6a5e5e-2b7b-4c1e-9a55-5c1b7f2f0001';
let ctx: Awaited<ReturnType<typeof createTestRedis>>;
let hec: LoopbackHec;
beforeEach(async () => {
  ctx = await createTestRedis();
  hec = await startHecServer(TOKEN);
});
afterEach(async () => {
  await hec.close();
  await ctx.cleanup();
});

const append = (n: number, from = 0) =>
  createAuditLog(ctx.redis, ctx.prefix).append(Array.from({ length: n }, (_, i) => ({ at: new Date().toISOString(), action: `step.${from + i}`, outcome: 'done' as const, actor: PIPELINE_ACTOR, incidentId: 'inc-1' })));

describe('audit forwarding to Splunk HEC', () => {
  it('copies every audit record once, in order, in batches, as HEC envelopes', async () => {
    await append(7);
    const deps = { redis: ctx.redis, prefix: ctx.prefix, hec: createHecClient({ url: hec.url, token: TOKEN, sourcetype: 'medic:audit', index: 'ops' }), batch: 3 };
    expect(await forwardAudit(deps)).toBe(7);
    expect(await forwardAudit(deps)).toBe(0);
    await append(2, 7);
    expect(await forwardAudit(deps)).toBe(2);
    expect(hec.received.map((e) => (e.event as { action: string }).action)).toEqual(Array.from({ length: 9 }, (_, i) => `step.${i}`));
    expect(hec.received[0]).toMatchObject({ sourcetype: 'medic:audit', index: 'ops', source: 'medic', time: expect.any(Number) });
  });

  it('keeps the cursor on a failed send, so the next tick resends and nothing is lost or skipped', async () => {
    await append(4);
    const deps = { redis: ctx.redis, prefix: ctx.prefix, hec: createHecClient({ url: hec.url, token: TOKEN, sourcetype: 'medic:audit' }), batch: 2 };
    hec.fail(503, { text: 'Server is busy', code: 9 });
    await expect(forwardAudit(deps)).rejects.toMatchObject({ code: 'ERR_UPSTREAM_UNAVAILABLE', transient: true });
    expect(await forwardAudit(deps)).toBe(4);
    expect(hec.received).toHaveLength(4);
  });

  it('says which credential is wrong, and never puts the token in the message', async () => {
    await append(1);
    const deps = { redis: ctx.redis, prefix: ctx.prefix, hec: createHecClient({ url: hec.url, token: 'wrong-token', sourcetype: 'medic:audit' }), batch: 10 };
    const error = await forwardAudit(deps).catch((e: unknown) => e as Error);
    expect(error).toMatchObject({ code: 'ERR_UPSTREAM_REJECTED', message: expect.stringContaining('check SPLUNK_HEC_TOKEN') });
    expect(String((error as Error).message)).not.toContain('wrong-token');
    hec.fail(200, { text: 'Token disabled', code: 1 });
    const disabled = await forwardAudit({ ...deps, hec: createHecClient({ url: hec.url, token: TOKEN, sourcetype: 'medic:audit' }) }).catch((e: unknown) => e);
    expect(disabled).toMatchObject({ code: 'ERR_UPSTREAM_REJECTED' });
    expect(hec.received).toHaveLength(0);
  });
});
