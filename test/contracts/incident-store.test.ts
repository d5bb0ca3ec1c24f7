import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { createRedis, deleteByPrefix, type RedisClient } from '../../src/adapters/redis/connect.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import { startRedisCluster, type TestRedisCluster } from '../support/redis-cluster.js';
import { TEST_REDIS_URL } from '../support/redis.js';
import { describeIncidentStoreContract } from './incident-store.contract.js';

/** A store under a fresh hash-tagged prefix (as Medic's default is), removed afterwards. */
function fixtureOn(redis: () => RedisClient) {
  return async () => {
    const prefix = `{medic-test-${randomUUID().slice(0, 8)}}:`;
    return { store: createIncidentStore(redis(), prefix), close: async () => void (await deleteByPrefix(redis(), prefix)) };
  };
}

let single: RedisClient;
beforeAll(() => void (single = createRedis(TEST_REDIS_URL, 'medic-contract')));
afterAll(() => single.disconnect());
describeIncidentStoreContract('Redis, one server', fixtureOn(() => single));

let cluster: TestRedisCluster;
let clustered: RedisClient;
beforeAll(async () => {
  cluster = await startRedisCluster();
  clustered = createRedis({ kind: 'cluster', nodes: cluster.nodes }, 'medic-contract');
}, 60_000);
afterAll(async () => {
  clustered.disconnect();
  await cluster.stop();
});
describeIncidentStoreContract('Redis Cluster, three masters', fixtureOn(() => clustered));
