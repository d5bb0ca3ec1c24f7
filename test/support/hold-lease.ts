/**
 * A process that takes a leased lock and holds it until killed: `node --import tsx hold-lease.ts
 * REDIS_URL KEY LEASE_MS`. Prints `held <fence>` once it holds the lock.
 */
import { Redis } from 'ioredis';
import { withRedisLock } from '../../src/adapters/redis/redis-lock.js';

const [url, key, leaseMs] = process.argv.slice(2);
const redis = new Redis(url ?? '', { maxRetriesPerRequest: null });
await withRedisLock(redis, key ?? '', async () => {
  process.stdout.write(`held ${await redis.get(key ?? '')}\n`);
  await new Promise(() => undefined);
}, { leaseMs: Number(leaseMs), waitMs: 60_000 });
