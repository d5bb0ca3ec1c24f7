/**
 * A prefix's state is laid out in the cell count its workers first started with: a later start
 * or command with another MEDIC_REDIS_CELLS is refused, with what to set, instead of leaving the
 * incidents where nothing reads them; doctor says so too.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cellLayoutKey, claimCellLayout, createCellLayoutCheck } from '../../src/adapters/redis/cell-layout.js';
import { runCliWith } from '../support/cli-io.js';
import { createWorld, type World } from '../support/medic-world.js';
import { createTestRedis } from '../support/redis.js';

let t: Awaited<ReturnType<typeof createTestRedis>>;
beforeEach(async () => {
  t = await createTestRedis();
});
afterEach(async () => {
  await t.cleanup();
});

describe('the cell layout of a prefix', () => {
  it('is recorded by the first claim and admits the same count again', async () => {
    await claimCellLayout(t.redis, t.prefix, 3);
    expect(await t.redis.get(cellLayoutKey(t.prefix))).toBe('3');
    await expect(claimCellLayout(t.redis, t.prefix, 3)).resolves.toBeUndefined();
  });

  it('refuses another count, naming both and what to set', async () => {
    await claimCellLayout(t.redis, t.prefix, 1);
    await expect(claimCellLayout(t.redis, t.prefix, 6)).rejects.toThrow(`MEDIC_REDIS_CELLS is 6, but the state under ${t.prefix} is laid out in 1 cell: `);
    await expect(claimCellLayout(t.redis, t.prefix, 6)).rejects.toThrow('Set MEDIC_REDIS_CELLS=1 again, or start a new layout under another MEDIC_REDIS_PREFIX');
    expect(await t.redis.get(cellLayoutKey(t.prefix))).toBe('1');
  });

  it('counts state recorded before the layout was as one cell\'s', async () => {
    await t.redis.zadd(`${t.prefix}incidents`, 1, 'inc-old');
    await expect(claimCellLayout(t.redis, t.prefix, 3)).rejects.toThrow('laid out in 1 cell (its incidents were recorded before cells)');
    await expect(claimCellLayout(t.redis, t.prefix, 1)).resolves.toBeUndefined();
  });

  it('is doctor\'s cell layout line', async () => {
    const line = () => createCellLayoutCheck(t.redis, t.prefix, 3).check();
    expect(await line()).toMatchObject({ name: 'cell layout', ok: true, detail: `3 cells under ${t.prefix}, recorded when the workers first start` });
    await claimCellLayout(t.redis, t.prefix, 3);
    expect(await line()).toMatchObject({ ok: true, detail: `3 cells under ${t.prefix}` });
    await t.redis.set(cellLayoutKey(t.prefix), '2');
    expect(await line()).toMatchObject({ ok: false, detail: expect.stringContaining('MEDIC_REDIS_CELLS is 3, but the state under') });
  });

  it('lets one of two racing first starts with different counts win, and refuses the other', async () => {
    const outcomes = await Promise.allSettled([claimCellLayout(t.redis, t.prefix, 2), claimCellLayout(t.redis, t.prefix, 4)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const won = outcomes.findIndex((o) => o.status === 'fulfilled');
    expect(await t.redis.get(cellLayoutKey(t.prefix))).toBe(String([2, 4][won]));
  });
});

describe('a command with another cell count than the state', () => {
  let world: World | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('is refused by the readers, records nothing, and the workers refuse to start', async () => {
    world = await createWorld({ llm: 'offline', cells: 3 });
    // A reader records no count: the first workers to start do.
    expect((await runCliWith({ ...world.env, MEDIC_REDIS_CELLS: '1' }, 'incidents')).code).toBe(0);
    expect(await world.redis.get(cellLayoutKey(world.prefix))).toBeNull();
    await claimCellLayout(world.redis, world.prefix, 1);
    const refused = await runCliWith(world.env, 'incidents');
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain(`MEDIC_REDIS_CELLS is 3, but the state under ${world.prefix} is laid out in 1 cell`);
    const medic = await world.startMedic();
    await expect(medic.startWorkers()).rejects.toThrow('Set MEDIC_REDIS_CELLS=1 again');
  });
});
