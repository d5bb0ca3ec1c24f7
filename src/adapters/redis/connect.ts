import { Redis } from 'ioredis';

/**
 * BullMQ workers need `maxRetriesPerRequest: null` (blocking commands must wait out a reconnect);
 * everything in Medic shares that setting so one connection options object serves all.
 */
export function createRedis(url: string, name = 'medic'): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, connectionName: name, lazyConnect: false });
}

/** True when something answers PING at the URL within the timeout. */
export async function isRedisReachable(url: string, timeoutMs = 1_000): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: timeoutMs });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** Deletes every key under a prefix (tests and `doctor --reset`); SCAN keeps Redis responsive. */
export async function deleteByPrefix(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}
