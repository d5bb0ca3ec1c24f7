import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { RedisNode } from '../../src/config/sections/redis.js';
import { freePort, spawnRedis, tempDir, waitUntil, withConnection, type RedisProcess } from './redis-servers.js';

function redisMajorVersion(): number {
  const out = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout ?? '';
  return Number(/v=(\d+)/.exec(out)?.[1] ?? 0);
}

/** Before Redis 7 the bus port is always port + 10000: both must be free. */
async function portWithBus(): Promise<[number, number]> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await freePort();
    if (port + 10_000 <= 65_535 && (await isFree(port + 10_000))) return [port, port + 10_000];
  }
  throw new Error('found no free port whose cluster bus port (port + 10000) is free too');
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export interface TestRedisCluster {
  /** Seed nodes (the first `masters` started), as REDIS_CLUSTER_NODES takes them; a client discovers the rest. */
  nodes: RedisNode[];
  /** `host:port,host:port`, the REDIS_CLUSTER_NODES value. */
  env: string;
  /** Every node process, masters and replicas, to kill one. */
  servers: RedisProcess[];
  /** The ports of the nodes that are masters now (after a failover, a promoted replica's). */
  masterPorts(): Promise<number[]>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  masters?: number;
  /** Replicas per master (0: none). */
  replicas?: number;
  /** `cluster-node-timeout`: how long a master may be unreachable before its replica takes over. */
  nodeTimeoutMs?: number;
}

/**
 * A real Redis Cluster of `masters` nodes, each with `replicas` replicas, on random loopback
 * ports, in a temporary directory, without persistence: each node in cluster mode with its own
 * config file, then `redis-cli --cluster create` assigns the 16,384 slots and the replicas. Ready
 * when every node says `cluster_state:ok`. `stop` kills the nodes and removes the directory.
 */
export async function startRedisCluster(options: ClusterOptions = {}): Promise<TestRedisCluster> {
  const masters = options.masters ?? 3;
  const replicas = options.replicas ?? 0;
  const count = masters * (1 + replicas);
  const dir = await tempDir('cluster');
  const servers: RedisProcess[] = [];
  const stop = async () => {
    await Promise.all(servers.map((s) => s.kill()));
    await dir.remove();
  };
  try {
    const ownBusPort = redisMajorVersion() >= 7;
    // A port found free can be taken by another process before the node binds it: that node
    // exits at once ("Address already in use") and starts again on other ports.
    const startNode = async (): Promise<RedisProcess> => {
      for (let attempt = 1; ; attempt++) {
        // The cluster bus listens on a second port: its own (`cluster-port`, Redis 7+), or port + 10000.
        const [port, busPort] = ownBusPort ? [await freePort(), await freePort()] : await portWithBus();
        const server = spawnRedis([
          '--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', ...(ownBusPort ? ['--cluster-port', String(busPort)] : []),
          '--cluster-config-file', join(dir.path, `nodes-${port}.conf`), '--dir', dir.path,
          '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning',
          ...(options.nodeTimeoutMs ? ['--cluster-node-timeout', String(options.nodeTimeoutMs)] : []),
        ], port);
        servers.push(server);
        const exited = () => server.child.exitCode !== null || server.child.signalCode !== null;
        await waitUntil(async () => exited() || (await withConnection(port, async (r) => (await r.ping()) === 'PONG')), `cluster node ${port} to start (${server.output()})`);
        if (!exited()) return server;
        servers.splice(servers.indexOf(server), 1);
        if (!/Address already in use/.test(server.output()) || attempt >= 5) throw new Error(`cluster node ${port} exited: ${server.output()}`);
      }
    };
    for (let i = 0; i < count; i++) await startNode();
    const create = spawnSync('redis-cli', ['--cluster', 'create', ...servers.map((s) => `127.0.0.1:${s.port}`), '--cluster-replicas', String(replicas), '--cluster-yes'], { encoding: 'utf8', timeout: 30_000 });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stderr || create.stdout}`);
    for (const server of servers) {
      await waitUntil(() => withConnection(server.port, async (r) => String(await r.call('CLUSTER', 'INFO')).includes('cluster_state:ok')), `cluster_state:ok on ${server.port}`);
    }
    // A replica serves once its first sync is done.
    for (const server of servers) {
      await waitUntil(() => withConnection(server.port, async (r) => !/master_link_status:down/.test(await r.info('replication'))), `the replica on ${server.port} to sync`, 30_000);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const nodes = servers.slice(0, masters).map((s) => ({ host: '127.0.0.1', port: s.port }));
  const masterPorts = async () => {
    const alive = servers.find((s) => s.child.exitCode === null && s.child.signalCode === null);
    if (!alive) return [];
    const table = await withConnection(alive.port, async (r) => String(await r.call('CLUSTER', 'NODES')));
    return table.split('\n').flatMap((line) => {
      const [, address, flags] = line.split(' ');
      return flags && /(^|,)master(,|$)/.test(flags) && !/fail/.test(flags) ? [Number(address!.split('@')[0]!.split(':')[1])] : [];
    });
  };
  return { nodes, env: nodes.map((n) => `${n.host}:${n.port}`).join(','), servers, masterPorts, stop };
}

/** A world's Redis on the cluster: REDIS_URL emptied so an inherited one cannot clash. */
export function clusterWorldRedis(cluster: TestRedisCluster) {
  return { env: { REDIS_URL: '', REDIS_CLUSTER_NODES: cluster.env }, target: { kind: 'cluster' as const, nodes: cluster.nodes } };
}
