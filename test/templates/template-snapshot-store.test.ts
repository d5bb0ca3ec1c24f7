import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteByPrefix } from '../../src/adapters/redis/connect.js';
import { createTemplateSnapshotStore } from '../../src/adapters/redis/template-snapshot-store.js';
import { ErrorCode } from '../../src/domain/errors.js';
import { createTemplateMiner } from '../../src/domain/templates/template-miner.js';

const REDIS_URL = process.env.MEDIC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('template snapshot store (real Redis)', () => {
  let redis: Redis;
  let prefix: string;

  beforeEach(() => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    prefix = `medic-test-${randomUUID()}:`;
  });
  afterEach(async () => {
    await deleteByPrefix(redis, prefix);
    redis.disconnect();
  });

  it('loads nothing before the first save', async () => {
    expect(await createTemplateSnapshotStore(redis, prefix).load()).toBeUndefined();
  });

  it('keeps group ids across a restart', async () => {
    const before = createTemplateMiner();
    const declined = before.add('Payment declined for order 123');
    const timeout = before.add('Payment timeout for order 456');
    await createTemplateSnapshotStore(redis, prefix).save(before.snapshot());
    expect(await redis.exists(`${prefix}templates:snapshot`)).toBe(1);

    const snapshot = await createTemplateSnapshotStore(redis, prefix).load();
    const after = createTemplateMiner({}, snapshot);
    expect(after.add('Payment declined for order 999').groupId).toBe(declined.groupId);
    expect(after.add('Payment timeout for order 998').groupId).toBe(timeout.groupId);
    expect(after.groupCount()).toBe(2);
  });

  it('replaces the previous snapshot on save', async () => {
    const store = createTemplateSnapshotStore(redis, prefix);
    const miner = createTemplateMiner();
    miner.add('disk full on /dev/sda1');
    await store.save(miner.snapshot());
    miner.add('fan failure in rack 4');
    await store.save(miner.snapshot());
    expect((await store.load())?.groups).toHaveLength(2);
  });

  it('rejects a corrupt snapshot with a coded error that names the key', async () => {
    await redis.set(`${prefix}templates:snapshot`, '{"version":1,"groups":"nope"}');
    await expect(createTemplateSnapshotStore(redis, prefix).load()).rejects.toMatchObject({
      code: ErrorCode.ValidationFailed,
      message: expect.stringContaining(`${prefix}templates:snapshot`),
    });
  });
});
