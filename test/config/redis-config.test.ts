import { describe, expect, it } from 'vitest';
import { describeRedisTarget, redisOptionsFor } from '../../src/adapters/redis/connect.js';
import { loadConfig } from '../../src/config/load-config.js';
import { redisTargetFrom } from '../../src/config/sections/redis.js';

function problems(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  return '';
}

describe('Redis configuration', () => {
  it('defaults to one server and a hash-tagged prefix, so the keys can move to a cluster as they are', () => {
    const config = loadConfig({});
    expect(config.MEDIC_REDIS_PREFIX).toBe('{medic}:');
    expect(redisTargetFrom(config)).toEqual({ kind: 'single' });
    expect(redisTargetFrom(loadConfig({ REDIS_URL: 'redis://:pw-secret@cache:6380/2' }))).toEqual({ kind: 'single', url: 'redis://:pw-secret@cache:6380/2' });
  });

  it('reads cluster seeds and sentinels as host:port lists, IPv6 in brackets, with the servers\' credentials', () => {
    const cluster = redisTargetFrom(loadConfig({ REDIS_CLUSTER_NODES: 'r1:7000, r2:7001,[::1]:7002', REDIS_PASSWORD: 'cluster-secret' }));
    expect(cluster).toEqual({ kind: 'cluster', nodes: [{ host: 'r1', port: 7000 }, { host: 'r2', port: 7001 }, { host: '::1', port: 7002 }], password: 'cluster-secret' });
    expect(describeRedisTarget(cluster)).toBe('redis-cluster://r1:7000,r2:7001,::1:7002');
    const sentinel = redisTargetFrom(loadConfig({ REDIS_SENTINELS: 's1:26379,s2:26379', REDIS_SENTINEL_NAME: 'medic-master' }));
    expect(sentinel).toEqual({ kind: 'sentinel', sentinels: [{ host: 's1', port: 26379 }, { host: 's2', port: 26379 }], name: 'medic-master' });
    expect(describeRedisTarget(sentinel)).toBe('redis-sentinel://s1:26379,s2:26379/medic-master');
    expect(describeRedisTarget({ kind: 'single', url: 'redis://:pw-secret@cache:6380' })).toBe('redis://***@cache:6380');
  });

  it('carries TLS and the sentinels\' own credentials from configuration into the ioredis options', () => {
    const ca = '-----BEGIN CERTIFICATE-----\nloopback-ca\n-----END CERTIFICATE-----\n';
    const read = (path: string) => (path === '/etc/medic/redis-ca.pem' ? ca : '');
    const cluster = redisTargetFrom(loadConfig({ REDIS_CLUSTER_NODES: 'r1:7000', REDIS_PASSWORD: 'pw', REDIS_TLS: 'true', REDIS_TLS_CA_FILE: '/etc/medic/redis-ca.pem' }));
    expect(cluster.kind === 'cluster' && redisOptionsFor(cluster, {}, read)).toEqual({ password: 'pw', tls: { ca } });
    const sentinel = redisTargetFrom(loadConfig({ REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: 'm', REDIS_PASSWORD: 'server-pw', REDIS_TLS: 'true', REDIS_SENTINEL_PASSWORD: 'sentinel-pw', REDIS_SENTINEL_USERNAME: 'watcher', REDIS_SENTINEL_TLS: 'true' }));
    expect(sentinel.kind === 'sentinel' && redisOptionsFor(sentinel, {}, read)).toEqual({
      password: 'server-pw', tls: {}, enableTLSForSentinelMode: true, sentinels: [{ host: 's1', port: 26379 }], name: 'm',
      sentinelUsername: 'watcher', sentinelPassword: 'sentinel-pw', sentinelTLS: {},
    });
    // Without TLS configured, nothing TLS-shaped is set: plain connections stay plain.
    const plain = redisTargetFrom(loadConfig({ REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: 'm' }));
    expect(plain.kind === 'sentinel' && redisOptionsFor(plain)).toEqual({ sentinels: [{ host: 's1', port: 26379 }], name: 'm' });
  });

  it('lists every Redis problem at once, each with what to set', () => {
    const message = problems({ REDIS_URL: 'redis://a:6379', REDIS_CLUSTER_NODES: 'r1:7000,r2,r3:99999', REDIS_SENTINELS: 'nope' });
    expect(message).toMatch(/REDIS_URL: set one of REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS, not REDIS_URL and REDIS_CLUSTER_NODES and REDIS_SENTINELS/);
    expect(message).toMatch(/REDIS_CLUSTER_NODES: each entry must be host:port \(got "r2", "r3:99999"\)/);
    expect(message).toMatch(/REDIS_SENTINELS: each entry must be host:port \(got "nope"\)/);
    expect(message).toMatch(/REDIS_SENTINEL_NAME: set the master name/);
    expect(problems({ REDIS_SENTINEL_NAME: 'm' })).toMatch(/REDIS_SENTINELS: list the sentinels/);
  });

  it('refuses an untagged prefix on a cluster, naming the tagged one to set; one server takes either', () => {
    expect(problems({ REDIS_CLUSTER_NODES: 'r1:7000', MEDIC_REDIS_PREFIX: 'medic:' })).toMatch(/MEDIC_REDIS_PREFIX: on a Redis Cluster the prefix must carry a hash tag .*: \{medic\}:/);
    expect(loadConfig({ MEDIC_REDIS_PREFIX: 'medic:' }).MEDIC_REDIS_PREFIX).toBe('medic:');
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'r1:7000', MEDIC_REDIS_PREFIX: '{prod-medic}:' }).MEDIC_REDIS_PREFIX).toBe('{prod-medic}:');
    expect(problems({ MEDIC_REDIS_PREFIX: '{}:' })).toMatch(/MEDIC_REDIS_PREFIX/);
    expect(problems({ MEDIC_REDIS_PREFIX: '{medic:' })).toMatch(/MEDIC_REDIS_PREFIX/);
  });

  it('never echoes the Redis password in a configuration error', () => {
    const message = problems({ REDIS_PASSWORD: 'hunter2-redis-secret', REDIS_CLUSTER_NODES: 'bad' });
    expect(message).toContain('REDIS_CLUSTER_NODES');
    expect(message).not.toContain('hunter2-redis-secret');
  });
});
