import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { RedisNode, RedisTarget } from '../../config/sections/redis.js';

/** One server, a Sentinel-managed master, or a Redis Cluster: every store takes any of them. */
export type RedisClient = Redis | Cluster;

/**
 * BullMQ workers need `maxRetriesPerRequest: null` (blocking commands must wait out a reconnect,
 * a failover included); everything in Medic shares that setting so one connection serves all.
 * On a cluster it goes in `redisOptions`, which BullMQ reads from there.
 */
export function createRedis(target: RedisTarget | string, name = 'medic'): RedisClient {
  const resolved: RedisTarget = typeof target === 'string' ? { kind: 'single', url: target } : target;
  const common: RedisOptions = { maxRetriesPerRequest: null, connectionName: name, lazyConnect: false };
  switch (resolved.kind) {
    case 'single':
      return new Redis(resolved.url ?? 'redis://127.0.0.1:6379', common);
    case 'cluster':
      return new Cluster(resolved.nodes, { redisOptions: { ...common, ...auth(resolved) } });
    case 'sentinel':
      // The sentinels are asked for the master on every (re)connect, so a failover is followed;
      // the credentials are the servers' (sentinels usually run without auth).
      return new Redis({ ...common, ...auth(resolved), sentinels: resolved.sentinels, name: resolved.name });
  }
}

function auth(target: { username?: string; password?: string }): RedisOptions {
  return { ...(target.username ? { username: target.username } : {}), ...(target.password ? { password: target.password } : {}) };
}

/** How `doctor` names the target; never carries a password. */
export function describeRedisTarget(target: RedisTarget): string {
  const list = (nodes: RedisNode[]) => nodes.map((n) => `${n.host}:${n.port}`).join(',');
  if (target.kind === 'cluster') return `redis-cluster://${list(target.nodes)}`;
  if (target.kind === 'sentinel') return `redis-sentinel://${list(target.sentinels)}/${target.name}`;
  return (target.url ?? 'redis://127.0.0.1:6379').replace(/\/\/[^@]*@/, '//***@');
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

/**
 * Deletes every key under a prefix (tests and `doctor --reset`); SCAN keeps Redis responsive. A
 * cluster's SCAN sees one node only, so each master is scanned, and keys are unlinked one by one:
 * an untagged prefix's keys span slots, and a multi-key UNLINK must not.
 */
export async function deleteByPrefix(redis: RedisClient, prefix: string): Promise<number> {
  // A cluster client learns its masters from the first slots refresh; a PING waits for it.
  if (redis instanceof Cluster) await redis.ping();
  const nodes: Redis[] = redis instanceof Cluster ? redis.nodes('master') : [redis];
  let deleted = 0;
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${escapeGlob(prefix)}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length === 0) continue;
      if (redis instanceof Cluster) {
        const results = (await keys.reduce((pipeline, key) => pipeline.unlink(key), node.pipeline()).exec()) ?? [];
        deleted += results.reduce((sum, [, n]) => sum + Number(n ?? 0), 0);
      } else {
        deleted += await node.unlink(...keys);
      }
    } while (cursor !== '0');
  }
  return deleted;
}

/** SCAN's MATCH is a glob: a prefix's own `[`, `*`, `?` or `\` must match literally. */
function escapeGlob(text: string): string {
  return text.replace(/[[\]*?\\]/g, '\\$&');
}
