/**
 * A worker that claims a click's replay keys and dies before answering leaves the click pending
 * in the stream; the worker that takes it over must answer it (same delivery), while a replay of
 * the same signed request — a new entry with the same keys — is still dropped.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClickFollowUpStream, startClickAnswerer, type ClickAnswerer } from '../../src/adapters/redis/click-follow-up-stream.js';
import { createRedisDeliveryClaims } from '../../src/adapters/redis/delivery-claims.js';
import { ActionId } from '../../src/presenters/card-actions.js';
import type { ClickFollowUp } from '../../src/ports/click-follow-ups.js';
import { answerClick, type AnswerClickDeps } from '../../src/use-cases/answer-click.js';
import type { IncidentCommands } from '../../src/use-cases/incident-commands.js';
import { createTestRedis } from '../support/redis.js';

const silent = { warn: () => undefined, error: () => undefined };
const STREAM = (prefix: string) => `${prefix}slack:click-follow-ups`;
const click: ClickFollowUp = {
  actionId: ActionId.Approve,
  value: JSON.stringify({ incidentId: 'inc-9', proposalHash: 'a'.repeat(64) }),
  user: { id: 'U0APPROVER' },
  channel: 'C0INCIDENTS',
  at: Date.now(),
  replayKeys: ['delivery:1700000000.abc', 'signature:v0=feed'],
};

describe('a claimed click whose worker died', () => {
  let ctx: Awaited<ReturnType<typeof createTestRedis>>;
  let answerer: ClickAnswerer | undefined;
  beforeEach(async () => (ctx = await createTestRedis()));
  afterEach(async () => {
    await answerer?.close();
    answerer = undefined;
    await ctx.cleanup();
  });

  function depsCounting(approvals: string[]): AnswerClickDeps {
    const claims = createRedisDeliveryClaims(ctx.redis, ctx.prefix);
    const commands = { approve: async (input: { incidentId: string }) => (approvals.push(input.incidentId), { ok: true, message: 'approved' }) } as unknown as IncidentCommands;
    return { commands, logger: silent, tell: async () => undefined, claim: (key, deliveryId) => claims.claim(key, deliveryId) };
  }

  it('is answered by the worker that takes it over, once, and its replay is still dropped', async () => {
    await createClickFollowUpStream(ctx.redis, ctx.prefix).enqueue(click);
    // The dead worker: it read the entry in the group, claimed the replay keys, and died.
    await ctx.redis.xgroup('CREATE', STREAM(ctx.prefix), 'answerers', '0', 'MKSTREAM');
    const read = (await ctx.redis.xreadgroup('GROUP', 'answerers', 'dead-worker', 'COUNT', 10, 'STREAMS', STREAM(ctx.prefix), '>')) as [string, [string, string[]][]][];
    const entryId = read[0]![1][0]![0];
    const claims = createRedisDeliveryClaims(ctx.redis, ctx.prefix);
    for (const key of click.replayKeys!) expect(await claims.claim(key, `click:${entryId}`)).toBe(true);

    const approvals: string[] = [];
    answerer = await startClickAnswerer(ctx.redis, ctx.prefix, (c) => answerClick(depsCounting(approvals), c), { logger: silent, blockMs: 50, idleMs: 100 });
    await expect.poll(() => approvals, { timeout: 10_000 }).toEqual(['inc-9']);
    await expect.poll(async () => ctx.redis.xlen(STREAM(ctx.prefix)), { timeout: 5_000 }).toBe(0);

    // The same signed request delivered again (a replay): a new entry, the same keys — dropped.
    await createClickFollowUpStream(ctx.redis, ctx.prefix).enqueue(click);
    await expect.poll(async () => ctx.redis.xlen(STREAM(ctx.prefix)), { timeout: 5_000 }).toBe(0);
    expect(approvals).toEqual(['inc-9']);
  });

  it('keeps the web role\'s own claims first-come: a second claim without a delivery id is refused', async () => {
    const claims = createRedisDeliveryClaims(ctx.redis, ctx.prefix);
    expect(await claims.claim('delivery:1700000001.def')).toBe(true);
    expect(await claims.claim('delivery:1700000001.def')).toBe(false);
    expect(await claims.claim('delivery:1700000001.def', 'click:1-0')).toBe(false);
    expect(await claims.claim('delivery:1700000002.ghi', 'click:2-0')).toBe(true);
    expect(await claims.claim('delivery:1700000002.ghi', 'click:3-0')).toBe(false);
  });
});
