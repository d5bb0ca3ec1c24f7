import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { RedisNode, RedisTarget, RedisTls } from '../../config/sections/redis.js';

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
  if (resolved.kind === 'single') return new Redis(resolved.url ?? 'redis://127.0.0.1:6379', common);
  if (resolved.kind === 'cluster') return new Cluster(resolved.nodes, { redisOptions: redisOptionsFor(resolved, common) });
  return new Redis(redisOptionsFor(resolved, common));
}

/** The ioredis options of a cluster's nodes or a Sentinel-managed connection: credentials and TLS from configuration. */
export function redisOptionsFor(target: Exclude<RedisTarget, { kind: 'single' }>, common: RedisOptions = {}, readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): RedisOptions {
  const tls = (t: RedisTls | undefined): ConnectionOptions | undefined => (t ? { ...(t.caFile ? { ca: readFile(t.caFile) } : {}) } : undefined);
  const own = { ...auth(target), ...(target.tls ? { tls: tls(target.tls) } : {}) };
  if (target.kind === 'cluster') return { ...common, ...own };
  // The sentinels are asked for the master on every (re)connect, so a failover is followed. ioredis
  // uses `tls` for the master only with enableTLSForSentinelMode; the sentinels have their own.
  const sentinel = target.sentinel;
  return {
    ...common, ...own, sentinels: target.sentinels, name: target.name,
    ...(target.tls ? { enableTLSForSentinelMode: true } : {}),
    ...(sentinel?.username ? { sentinelUsername: sentinel.username } : {}),
    ...(sentinel?.password ? { sentinelPassword: sentinel.password } : {}),
    ...(sentinel?.tls ? { sentinelTLS: tls(sentinel.tls) } : {}),
  };
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
