import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RedisNode } from '../../src/config/sections/redis.js';
import { freePort, spawnRedis, tempDir, waitUntil, withConnection, type RedisProcess } from './redis-servers.js';

export interface TestRedisSentinel {
  name: string;
  sentinels: RedisNode[];
  /** REDIS_SENTINELS, REDIS_SENTINEL_NAME (and REDIS_URL emptied so an inherited one cannot clash). */
  env: Record<string, string>;
  /** The port the sentinels name as master now. */
  masterPort(): Promise<number>;
  /** SIGKILLs the current master; resolves once the sentinels have promoted the replica. */
  killMaster(): Promise<{ from: number; to: number }>;
  stop(): Promise<void>;
}

const NAME = 'medic-test';

/**
 * One master, one replica and three sentinels (quorum 2) on random loopback ports, in a temporary
 * directory, without persistence. The sentinels call a master down after 1 s without an answer,
 * so a failover takes a few seconds. Ready when the replica is in sync and every sentinel knows
 * the replica and the two other sentinels.
 */
export async function startRedisSentinel(): Promise<TestRedisSentinel> {
  const dir = await tempDir('sentinel');
  const processes: RedisProcess[] = [];
  const stop = async () => {
    await Promise.all(processes.map((p) => p.kill()));
    await dir.remove();
  };
  const server = (port: number, extra: string[] = []) =>
    spawnRedis(['--port', String(port), '--bind', '127.0.0.1', '--dir', dir.path, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning', ...extra], port);
  const ask = (port: number, ...args: string[]) => withConnection(port, (r) => r.call('SENTINEL', ...args));
  try {
    const masterPort = await freePort();
    const replicaPort = await freePort();
    processes.push(server(masterPort));
    await waitUntil(() => withConnection(masterPort, async (r) => (await r.ping()) === 'PONG'), 'the master to start');
    processes.push(server(replicaPort, ['--replicaof', '127.0.0.1', String(masterPort)]));
    await waitUntil(() => withConnection(replicaPort, async (r) => (await r.info('replication')).includes('master_link_status:up')), 'the replica to sync');
    const sentinelPorts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      // A sentinel rewrites its config file as it learns the topology, so each has its own.
      const file = join(dir.path, `sentinel-${port}.conf`);
      await writeFile(file, [
        `port ${port}`, 'bind 127.0.0.1', `dir ${dir.path}`,
        `sentinel monitor ${NAME} 127.0.0.1 ${masterPort} 2`,
        `sentinel down-after-milliseconds ${NAME} 1000`,
        `sentinel failover-timeout ${NAME} 5000`,
        `sentinel parallel-syncs ${NAME} 1`,
      ].join('\n') + '\n');
      processes.push(spawnRedis([file, '--sentinel'], port));
      sentinelPorts.push(port);
    }
    for (const port of sentinelPorts) {
      await waitUntil(async () => {
        const replicas = (await ask(port, 'REPLICAS', NAME)) as unknown[];
        const others = (await ask(port, 'SENTINELS', NAME)) as unknown[];
        return replicas.length === 1 && others.length === 2;
      }, `sentinel ${port} to know the replica and the other sentinels`, 30_000);
    }
    const sentinels = sentinelPorts.map((port) => ({ host: '127.0.0.1', port }));
    const masterPortNow = async () => Number(((await ask(sentinelPorts[0]!, 'GET-MASTER-ADDR-BY-NAME', NAME)) as string[])[1]);
    return {
      name: NAME,
      sentinels,
      env: { REDIS_URL: '', REDIS_SENTINELS: sentinels.map((s) => `${s.host}:${s.port}`).join(','), REDIS_SENTINEL_NAME: NAME },
      masterPort: masterPortNow,
      async killMaster() {
        const from = await masterPortNow();
        await processes.find((p) => p.port === from)?.kill();
        await waitUntil(async () => (await masterPortNow()) !== from, 'the sentinels to promote the replica', 30_000);
        const to = await masterPortNow();
        await waitUntil(() => withConnection(to, async (r) => (await r.info('replication')).includes('role:master')), 'the promoted replica to take writes');
        return { from, to };
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
