/**
 * Where Medic's Redis is, in one of three shapes. Merged into EnvSchema in src/config/schema.ts;
 * nothing here reads process.env.
 *
 * - REDIS_URL: one server (or nothing: 127.0.0.1:6379, else an embedded redis-server).
 * - REDIS_CLUSTER_NODES: a Redis Cluster, `host:port` seeds; the rest are discovered.
 * - REDIS_SENTINELS + REDIS_SENTINEL_NAME: a Sentinel-managed master, found (and re-found after a
 *   failover) by asking the sentinels.
 * REDIS_USERNAME / REDIS_PASSWORD authenticate to the cluster nodes or the sentinel-managed
 * servers (a single server takes them inside REDIS_URL).
 */
import { z } from 'zod';
import { boolFrom, intFrom, listFrom, optionalString, urlString } from '../env-helpers.js';

export interface RedisNode {
  host: string;
  port: number;
}

export const redisEnv = {
  REDIS_URL: urlString,
  REDIS_CLUSTER_NODES: listFrom([]),
  REDIS_SENTINELS: listFrom([]),
  REDIS_SENTINEL_NAME: optionalString,
  REDIS_USERNAME: optionalString,
  REDIS_PASSWORD: optionalString,
  /** TLS to the cluster nodes, or to the Sentinel-managed servers (a single server: a rediss:// REDIS_URL). */
  REDIS_TLS: boolFrom(false),
  /** A PEM CA bundle the servers' (and sentinels') TLS certificates are checked against; default: the system's. */
  REDIS_TLS_CA_FILE: optionalString,
  /** Credentials and TLS of the sentinels themselves, when they require them. */
  REDIS_SENTINEL_USERNAME: optionalString,
  REDIS_SENTINEL_PASSWORD: optionalString,
  REDIS_SENTINEL_TLS: boolFrom(false),
  /**
   * Every key Medic writes starts with this. The braces are a Redis Cluster hash tag: every key
   * then lives in one slot, which Medic's ingest scripts need (they update the global indexes in
   * the same atomic step as the incident record) and which a cluster enforces. An untagged prefix
   * (`medic:`, the old default) still works on one server or Sentinel.
   */
  MEDIC_REDIS_PREFIX: z
    .string()
    .regex(/^(?:\{[A-Za-z0-9_.-]+\}|[A-Za-z0-9_.-]+):$/, 'letters, digits, _ . - and a trailing colon, optionally in braces as a hash tag: {medic}:')
    .default('{medic}:'),
  /**
   * How many cells Medic's state is cut into (see src/domain/cells.ts): each service's incidents,
   * families, windows, queues and audit live in one cell, under a hash tag of its own, so a Redis
   * Cluster spreads services over its masters. 1 (the default) is one keyspace under
   * MEDIC_REDIS_PREFIX. Set it once: a service's cell follows from the count.
   */
  MEDIC_REDIS_CELLS: intFrom(1, 1, 64),
};

const HOST_PORT = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

/** `host:port` (IPv6 in brackets) or undefined when it is not one. */
export function parseRedisNode(entry: string): RedisNode | undefined {
  const match = HOST_PORT.exec(entry);
  const port = Number(match?.[2]);
  if (!match?.[1] || !Number.isInteger(port) || port < 1 || port > 65_535) return undefined;
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}

type RedisEnv = { REDIS_URL?: string; REDIS_CLUSTER_NODES: string[]; REDIS_SENTINELS: string[]; REDIS_SENTINEL_NAME?: string; MEDIC_REDIS_PREFIX: string; MEDIC_REDIS_CELLS?: number };

/** Every problem with the Redis variables together, each with what to set. */
export function redisProblems(env: RedisEnv): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const shapes = [env.REDIS_URL && 'REDIS_URL', env.REDIS_CLUSTER_NODES.length > 0 && 'REDIS_CLUSTER_NODES', env.REDIS_SENTINELS.length > 0 && 'REDIS_SENTINELS'].filter(Boolean);
  if (shapes.length > 1) problems.push({ path: 'REDIS_URL', message: `set one of REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS, not ${shapes.join(' and ')}` });
  for (const name of ['REDIS_CLUSTER_NODES', 'REDIS_SENTINELS'] as const) {
    const bad = env[name].filter((entry) => !parseRedisNode(entry));
    if (bad.length > 0) problems.push({ path: name, message: `each entry must be host:port (got ${bad.map((b) => JSON.stringify(b.slice(0, 60))).join(', ')})` });
  }
  if (env.REDIS_SENTINELS.length > 0 && !env.REDIS_SENTINEL_NAME) problems.push({ path: 'REDIS_SENTINEL_NAME', message: 'set the master name the sentinels monitor (their `sentinel monitor <name> …` line)' });
  if (env.REDIS_SENTINEL_NAME && env.REDIS_SENTINELS.length === 0) problems.push({ path: 'REDIS_SENTINELS', message: 'list the sentinels (host:port,host:port) that monitor REDIS_SENTINEL_NAME' });
  if ((env.MEDIC_REDIS_CELLS ?? 1) > 1 && !env.MEDIC_REDIS_PREFIX.startsWith('{')) {
    problems.push({ path: 'MEDIC_REDIS_PREFIX', message: `cells (MEDIC_REDIS_CELLS > 1) are named after the prefix's hash tag: {${env.MEDIC_REDIS_PREFIX.slice(0, -1)}}:` });
  } else if (env.REDIS_CLUSTER_NODES.length > 0 && !env.MEDIC_REDIS_PREFIX.startsWith('{')) {
    problems.push({ path: 'MEDIC_REDIS_PREFIX', message: `on a Redis Cluster the prefix must carry a hash tag so Medic's keys share one slot: {${env.MEDIC_REDIS_PREFIX.slice(0, -1)}}:` });
  }
  return problems;
}

/** TLS for a connection: on, with the CA bundle to check the server against (default: the system's). */
export interface RedisTls {
  caFile?: string;
}

export type RedisTarget =
  | { kind: 'single'; url?: string }
  | { kind: 'cluster'; nodes: RedisNode[]; username?: string; password?: string; tls?: RedisTls }
  | {
      kind: 'sentinel'; sentinels: RedisNode[]; name: string; username?: string; password?: string; tls?: RedisTls;
      sentinel?: { username?: string; password?: string; tls?: RedisTls };
    };

/** The validated variables as the one shape the connection factory takes. */
export function redisTargetFrom(config: RedisEnv & {
  REDIS_USERNAME?: string; REDIS_PASSWORD?: string; REDIS_TLS?: boolean; REDIS_TLS_CA_FILE?: string;
  REDIS_SENTINEL_USERNAME?: string; REDIS_SENTINEL_PASSWORD?: string; REDIS_SENTINEL_TLS?: boolean;
}): RedisTarget {
  const tlsOf = (on: boolean | undefined) => (on ? { tls: config.REDIS_TLS_CA_FILE ? { caFile: config.REDIS_TLS_CA_FILE } : {} } : {});
  const auth = { ...(config.REDIS_USERNAME ? { username: config.REDIS_USERNAME } : {}), ...(config.REDIS_PASSWORD ? { password: config.REDIS_PASSWORD } : {}), ...tlsOf(config.REDIS_TLS) };
  const sentinel = {
    ...(config.REDIS_SENTINEL_USERNAME ? { username: config.REDIS_SENTINEL_USERNAME } : {}),
    ...(config.REDIS_SENTINEL_PASSWORD ? { password: config.REDIS_SENTINEL_PASSWORD } : {}),
    ...tlsOf(config.REDIS_SENTINEL_TLS),
  };
  const nodes = (list: string[]) => list.flatMap((entry) => parseRedisNode(entry) ?? []);
  if (config.REDIS_CLUSTER_NODES.length > 0) return { kind: 'cluster', nodes: nodes(config.REDIS_CLUSTER_NODES), ...auth };
  if (config.REDIS_SENTINELS.length > 0) return { kind: 'sentinel', sentinels: nodes(config.REDIS_SENTINELS), name: config.REDIS_SENTINEL_NAME ?? '', ...auth, ...(Object.keys(sentinel).length > 0 ? { sentinel } : {}) };
  return { kind: 'single', ...(config.REDIS_URL ? { url: config.REDIS_URL } : {}) };
}
