/**
 * Medic on a real Redis Cluster of three masters, each with a replica, started by the bench: an
 * error storm across the storm's 10 services (20 families) is polled, grouped, analysed (scripted
 * model) and carded by one Medic process, and the bench asks each master what it holds and did.
 * Headline:
 * - busiest_master_key_share: the largest share of Medic's keys on one master (SCAN per master);
 *   1/3 is an even spread, 1 is every key on one master.
 * - busiest_master_cmd_share: the largest share of the commands the storm made Redis run on one
 *   master (`INFO commandstats` calls, after minus before).
 * - lost / duplicated: events the incidents' counts miss or count twice, and families with no
 *   incident or more than one.
 * - failover_lost / failover_duplicated: the same after a second storm during which the master
 *   holding the most keys is killed (SIGKILL) and its replica takes over.
 * Beside them, each master's keys by what they hold: queues (BullMQ), one incident's, or shared.
 * Medic runs with CLUSTER_BENCH_CELLS cells (MEDIC_REDIS_CELLS; default 6, two per master); 1 is
 * the single keyspace, for comparison.
 */
import { cpus, loadavg } from 'node:os';
import { withConnection } from '../test/support/redis-servers.js';
import { cardsDelivered, createWorld, type World } from '../test/support/medic-world.js';
import { clusterWorldRedis, startRedisCluster, type TestRedisCluster } from '../test/support/redis-cluster.js';
import { STORM_FAMILIES, stormLines } from '../test/support/storm-events.js';
import { isOverflowFingerprint } from '../src/domain/storm-policy.js';
import { cellPrefixes } from '../src/domain/cells.js';
import type { BenchReport } from './report.js';

const EVENTS = Number(process.env.CLUSTER_BENCH_EVENTS ?? 20_000);
const FAMILIES = STORM_FAMILIES.length;
const SERVICES = new Set(STORM_FAMILIES.map((f) => f.service)).size;
const NODE_TIMEOUT_MS = 2_000;
const CELLS = Number(process.env.CLUSTER_BENCH_CELLS ?? 6);

type Medic = Awaited<ReturnType<World['startMedic']>>;

async function commandCalls(port: number): Promise<number> {
  const info = await withConnection(port, (r) => r.info('commandstats'));
  return [...info.matchAll(/calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
}

/** What a key holds, by its name: a queue's (BullMQ), one incident's, or state shared by all. */
function classOf(name: string): 'queues' | 'incident' | 'shared' {
  if (name.startsWith('bull:')) return 'queues';
  return /inc-[a-z0-9]/.test(name) ? 'incident' : 'shared';
}

async function keysOn(port: number, prefixes: string[]): Promise<{ count: number; byClass: Record<string, number> }> {
  return withConnection(port, async (r) => {
    const byClass: Record<string, number> = { queues: 0, incident: 0, shared: 0 };
    let count = 0;
    for (const prefix of prefixes) {
      let cursor = '0';
      do {
        const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix.replace(/[[\]*?\\]/g, '\\$&')}*`, 'COUNT', 1_000);
        cursor = next;
        count += keys.length;
        for (const key of keys) byClass[classOf(key.slice(prefix.length))]! += 1;
      } while (cursor !== '0');
    }
    return { count, byClass };
  });
}

/** Events counted by the incidents, and incidents per family (a family is its exception and service). */
async function tally(medic: Medic): Promise<{ counted: number; incidents: number; families: Map<string, number> }> {
  const all = (await medic.store.list()).filter((i) => !isOverflowFingerprint(i.fingerprint) && !i.mergedInto);
  const counts = await Promise.all(all.map(async (i) => (await medic.store.stats(i.id))?.count ?? 0));
  const families = new Map<string, number>();
  for (const incident of all) families.set(incident.fingerprint, (families.get(incident.fingerprint) ?? 0) + 1);
  return { counted: counts.reduce((a, b) => a + b, 0), incidents: all.length, families };
}

async function settle(world: World, medic: Medic, expected: number, what: string): Promise<void> {
  await world.waitFor(async () => {
    const { counted } = await tally(medic);
    const all = await medic.store.list();
    return counted >= expected && all.length >= FAMILIES && all.every((i) => i.steps.card && i.card) && (await cardsDelivered(medic));
  }, what, 600_000).catch(() => undefined);
}

async function storm(world: World, medic: Medic, name: string, seed: number, base: number): Promise<void> {
  for (const [i, chunk] of stormLines({ total: EVENTS, seed, base }).entries()) await world.writeLogs(`${name}-${i}.jsonl`, chunk);
  await medic.queues.poll.add('poll', {});
}

async function shares(cluster: TestRedisCluster, prefixes: string[], callsBefore: Map<number, number>) {
  const masters = await cluster.masterPorts();
  const held = await Promise.all(masters.map((port) => keysOn(port, prefixes)));
  const keys = held.map((h) => h.count);
  const calls = await Promise.all(masters.map(async (port) => (await commandCalls(port)) - (callsBefore.get(port) ?? 0)));
  const share = (values: number[]) => Math.max(...values) / Math.max(1, values.reduce((a, b) => a + b, 0));
  return { masters, keys, keysByClass: held.map((h) => h.byClass), calls, keyShare: share(keys), cmdShare: share(calls) };
}

export default async function bench(): Promise<BenchReport> {
  const loadBefore = loadavg()[0] ?? 0;
  const cluster = await startRedisCluster({ masters: 3, replicas: 1, nodeTimeoutMs: NODE_TIMEOUT_MS });
  const world = await createWorld({ llm: 'scripted', redis: clusterWorldRedis(cluster), cells: CELLS });
  // The cells, and the home prefix that holds what spans them.
  const prefixes = [...new Set([world.prefix, ...cellPrefixes(world.prefix, CELLS)])];
  try {
    const medic = await world.startMedic();
    await medic.startWorkers();
    await world.waitFor(async () => (await medic.poll.checkpoints.get(medic.poll.source.name)) ?? undefined, 'the first poll', 60_000);

    const callsBefore = new Map(await Promise.all((await cluster.masterPorts()).map(async (port) => [port, await commandCalls(port)] as const)));
    const started = performance.now();
    await storm(world, medic, 'storm-a', 7, Date.parse('2026-11-30T09:00:00.000Z'));
    await settle(world, medic, EVENTS, 'the first storm');
    const firstSeconds = (performance.now() - started) / 1000;
    const first = await tally(medic);
    const spread = await shares(cluster, prefixes, callsBefore);

    // The second storm, with the busiest master killed while it is ingested.
    const busiest = spread.masters[spread.keys.indexOf(Math.max(...spread.keys))]!;
    await storm(world, medic, 'storm-b', 11, Date.parse('2026-11-30T09:10:00.000Z'));
    await world.waitFor(async () => (await tally(medic)).counted > EVENTS, 'the second storm to start', 120_000);
    const killedAt = performance.now();
    await cluster.servers.find((s) => s.port === busiest)!.kill();
    await world.waitFor(async () => !(await cluster.masterPorts().catch(() => [busiest])).includes(busiest) && (await cluster.masterPorts()).length === 3, 'the replica to take over', 60_000);
    const failoverSeconds = (performance.now() - killedAt) / 1000;
    await settle(world, medic, 2 * EVENTS, 'the second storm');
    const second = await tally(medic);

    const familyFaults = (t: typeof first) => ({
      missing: FAMILIES - t.families.size,
      doubled: [...t.families.values()].filter((n) => n > 1).length,
    });
    const f1 = familyFaults(first);
    const f2 = familyFaults(second);
    const loadAfter = loadavg()[0] ?? 0;
    return {
      headline: {
        busiest_master_key_share: Number(spread.keyShare.toFixed(3)),
        busiest_master_cmd_share: Number(spread.cmdShare.toFixed(3)),
        lost: Math.max(0, EVENTS - first.counted) + f1.missing,
        duplicated: Math.max(0, first.counted - EVENTS) + f1.doubled,
        failover_lost: Math.max(0, 2 * EVENTS - second.counted) + f2.missing,
        failover_duplicated: Math.max(0, second.counted - 2 * EVENTS) + f2.doubled,
        storm_seconds: Number(firstSeconds.toFixed(2)),
        failover_seconds: Number(failoverSeconds.toFixed(2)),
      },
      table: {
        columns: ['master', 'keys', 'key share', 'commands', 'command share'],
        rows: spread.masters.map((port, i) => [String(port), spread.keys[i]!, Number((spread.keys[i]! / Math.max(1, spread.keys.reduce((a, b) => a + b, 0))).toFixed(3)), spread.calls[i]!, Number((spread.calls[i]! / Math.max(1, spread.calls.reduce((a, b) => a + b, 0))).toFixed(3))]),
      },
      detail: {
        events_per_storm: EVENTS, families: FAMILIES, services: SERVICES, masters: 3, replicas_per_master: 1, node_timeout_ms: NODE_TIMEOUT_MS,
        cells: CELLS, prefix_layout: prefixes, keys_per_master: spread.keys, keys_by_class_per_master: spread.keysByClass, commands_per_master: spread.calls,
        first: { counted: first.counted, incidents: first.incidents, ...f1 }, second: { counted: second.counted, incidents: second.incidents, ...f2 },
        killed_master: busiest, node: process.version, cpus: cpus().length, load_avg_1m_before: loadBefore, load_avg_1m_after: loadAfter,
      },
    };
  } finally {
    await world.close().catch(() => undefined);
    await cluster.stop();
  }
}
