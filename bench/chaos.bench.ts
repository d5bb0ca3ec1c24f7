/**
 * The chaos drill: the web role and three workers as separate processes on the real
 * queues, on a redis-server of the drill's own (a free loopback port, AOF with fsync always, in a
 * temp dir), while random SIGKILLs hit the workers, the web role and the approving process
 * (`medic approve`, the same approve use-case the web's Slack handler runs) during analyses,
 * approvals and fixes, and Redis itself is SIGKILLed once and restarted on its AOF. A kill only
 * lands on a process that is up (booted), and never on the last worker that is up; a supervisor
 * restarts whatever died, as a container restart policy would. Each process runs the built
 * bundle, as `npm start` does (built from the sources when the drill starts).
 *
 * Headline (one drill; it is a fault count, not a timing): lost (events written but not counted
 * in any incident, plus families with no incident), duplicated (second incidents of a family,
 * second cards, second branches, events counted twice), stuck (incidents not `fixed` when the
 * drill ends), fix_failed_by_crash (incidents that ended `fix_failed`), all expected 0; and
 * max_stall_s, the longest time no step completed anywhere while work remained (target ≤ 10).
 * The same drill then runs beside two busy processes per core: the same figures with `_loaded`
 * (max_stall_s_loaded target ≤ 15).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createRedis, type RedisClient } from '../src/adapters/redis/connect.js';
import { createIncidentStore } from '../src/adapters/redis/incident-store.js';
import { cellReaders } from '../src/app/cells/cell-readers.js';
import { cellOfService } from '../src/domain/cells.js';
import type { Incident } from '../src/domain/incident.js';
import { fixBranches } from '../test/support/git-remote.js';
import { APPROVER, ROOT, createWorld, type World, type WorldOptions } from '../test/support/medic-world.js';
import { startOwnRedis } from '../test/support/own-redis.js';
import { clusterWorldRedis, startRedisCluster } from '../test/support/redis-cluster.js';
import { withConnection } from '../test/support/redis-servers.js';
import { buildDist } from '../scripts/build.mjs';
import type { BenchReport } from './report.js';

const FAMILIES = Number(process.env.MEDIC_CHAOS_FAMILIES ?? 6);
const EVENTS_PER_FAMILY = 8;
const MIN_KILLS = 30;
const DEADLINE_MS = Number(process.env.MEDIC_CHAOS_DEADLINE_MS ?? 300_000);
const NAMES = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel', 'India', 'Juliet', 'Kilo', 'Lima', 'Mike', 'November', 'Oscar', 'Papa', 'Quebec', 'Romeo', 'Sierra', 'Tango'];

// Short leases and a fast sweep: what a deployment that wants seconds-long recovery sets.
const CHAOS_ENV = {
  MEDIC_JOB_LOCK_MS: '4000', MEDIC_GATEWAY_LOCK_MS: '2000', MEDIC_DATA_LOCK_LEASE_MS: '2000',
  MEDIC_SWEEP_INTERVAL_S: '2', MEDIC_STUCK_AFTER_S: '10', MEDIC_POLL_INTERVAL_MS: '500', MEDIC_QUIET_PERIOD_S: '86400',
  MEDIC_OPERATOR_ID: APPROVER,
};

/** One checkout family per exception type: the same failing code, a scope of its own. */
function familyLines(family: number, round: number, base = Date.parse('2026-11-30T09:00:00.000Z')): string {
  const type = `Discount${NAMES[family % NAMES.length] ?? 'Other'}${family >= NAMES.length ? family : ''}Error`;
  const time = new Date(base + round * 60_000 + family * 1_000).toISOString();
  const ids = { requestId: `req-${family}-${round}`, sessionId: `s-${family}-${round}`, orderNumber: `SO-${family}${round}` };
  return JSON.stringify({
    time, level: 'ERROR', service: 'shop', message: `request failed: ${type}: Invalid discount per item: Infinity`, ...ids, errorCode: 'DISCOUNT_INVALID',
    stack: `${type}: Invalid discount per item: Infinity\n    at spreadDiscount (/srv/shop/src/checkout/discounts.ts:44:11)\n    at applyDiscounts (/srv/shop/src/checkout/discounts.ts:58:10)\n    at priceCart (/srv/shop/src/checkout/cart-total.ts:30:18)`,
  }) + '\n';
}

const spawned: ChildProcess[] = [];
/** Processes that said they are up: a kill lands on a worker or web role doing work, not on one still booting. */
const up = new WeakSet<ChildProcess>();
/** Seconds from spawn to "up", per worker or web process: what a kill costs before the process works again. */
const boots: number[] = [];

function spawnRole(world: World, args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...world.env, ...CHAOS_ENV, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
  child.on('error', () => undefined);
  let seen = '';
  const spawnedAt = Date.now();
  child.stdout?.on('data', (chunk: Buffer) => {
    if (up.has(child)) return;
    seen = (seen + chunk.toString()).slice(-4_000);
    if (/medic is running|web role on/.test(seen)) {
      up.add(child);
      boots.push((Date.now() - spawnedAt) / 1000);
    }
  });
  spawned.push(child);
  return child;
}

const alive = (child: ChildProcess | undefined) => child !== undefined && child.exitCode === null && child.signalCode === null;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Steps persisted plus incidents finished: it only grows while the fleet makes progress. */
function progressOf(incidents: Incident[]): number {
  return incidents.reduce((sum, i) => sum + Object.keys(i.steps).length + (i.state === 'fixed' ? 1 : 0), 0);
}

/** Each unfinished incident's state and newest persisted step, counted: `analyzing after rca: 2, fixing after publish: 1`. */
function stallSummary(incidents: Incident[]): string {
  const counts = new Map<string, number>();
  for (const i of incidents) {
    if (i.state === 'fixed') continue;
    const last = Object.entries(i.steps).sort((a, b) => (a[1]?.at ?? '').localeCompare(b[1]?.at ?? '')).at(-1)?.[0];
    const key = `${i.state}${last ? ` after ${last}` : ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => `${key}: ${n}`).join(', ');
}

/** Busy processes beside the loaded drill: two per core, by default. */
const BUSY = Number(process.env.MEDIC_CHAOS_BUSY ?? cpus().length * 2);

/**
 * The drill twice: on the machine as it is, then beside busy processes spinning on every core
 * (`MEDIC_CHAOS_BUSY`; 0 skips it), whose figures carry a `_loaded` suffix.
 */
export default async function chaosBench(): Promise<BenchReport> {
  await buildDist();
  const quiet = await drill({ busy: 0 });
  if (!(BUSY > 0)) return quiet;
  const loaded = await drill({ busy: BUSY });
  const pick = ['lost', 'duplicated', 'stuck', 'fix_failed_by_crash', 'max_stall_s', 'kills', 'drill_seconds', 'load_average_1m'];
  return {
    headline: { ...quiet.headline, ...Object.fromEntries(pick.map((key) => [`${key}_loaded`, loaded.headline[key] ?? 0])), busy_processes: BUSY },
    table: { columns: ['figure', 'value', `with ${BUSY} busy processes`], rows: quiet.table.rows.map((row, i) => [...row, loaded.table.rows[i]?.[1] ?? '']) },
    detail: { quiet: quiet.detail, loaded: loaded.detail },
  };
}

function busyProcess(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  spawned.push(child);
  return child;
}

export interface DrillOptions {
  /** Busy processes spinning beside the drill. */
  busy: number;
  /**
   * A Redis Cluster of three masters, each with a replica, instead of one server: the Redis kill
   * is then a SIGKILL of the master holding Medic's keys, and its replica takes over (no restart).
   */
  cluster?: boolean;
  workers?: number;
  webs?: number;
  /** MEDIC_REDIS_CELLS for the fleet: the state cut into this many cells (default 1). */
  cells?: number;
}

/** Where the drill's Redis is, and how the drill kills it once. */
interface DrillRedis {
  world: WorldOptions;
  reader: RedisClient;
  /** Kills Redis (or its busiest master) and returns once it serves again. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

async function ownRedis(): Promise<DrillRedis> {
  const redis = await startOwnRedis();
  // The drill's own view of the state; commands time out fast while Redis is down.
  const reader = new Redis(redis.url, { maxRetriesPerRequest: 1, retryStrategy: () => 200, enableOfflineQueue: false });
  return {
    world: { redisUrl: redis.url }, reader,
    async kill() {
      await redis.kill();
      await sleep(1_000);
      await redis.restart();
    },
    stop: () => redis.stop(),
  };
}

async function clusterRedis(): Promise<DrillRedis> {
  const cluster = await startRedisCluster({ masters: 3, replicas: 1, nodeTimeoutMs: 2_000 });
  const worldRedis = clusterWorldRedis(cluster);
  const reader = createRedis(worldRedis.target, 'medic-chaos-reader');
  return {
    world: { redis: worldRedis }, reader,
    async kill() {
      const masters = await cluster.masterPorts();
      const sizes = await Promise.all(masters.map((port) => withConnection(port, (r) => r.dbsize())));
      const busiest = masters[sizes.indexOf(Math.max(...sizes))]!;
      await cluster.servers.find((s) => s.port === busiest)!.kill();
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && ((await cluster.masterPorts().catch(() => [busiest])).includes(busiest) || (await cluster.masterPorts()).length < 3)) await sleep(200);
    },
    stop: () => cluster.stop(),
  };
}

export async function drill(options: DrillOptions): Promise<BenchReport> {
  const { busy } = options;
  const workerCount = options.workers ?? 3;
  const webCount = options.webs ?? 1;
  boots.length = 0;
  Array.from({ length: busy }, busyProcess);
  const redis = options.cluster ? await clusterRedis() : await ownRedis();
  const cells = options.cells ?? 1;
  const world = await createWorld({ llm: 'scripted', ...redis.world, ...(cells > 1 ? { cells } : {}) });
  const reader = redis.reader;
  reader.on('error', () => undefined);
  const store = cells > 1 ? cellReaders(reader, { MEDIC_REDIS_PREFIX: world.prefix, MEDIC_REDIS_CELLS: cells }).store : createIncidentStore(reader, world.prefix);
  const workers: (ChildProcess | undefined)[] = [];
  const webs: (ChildProcess | undefined)[] = [];
  const approvers = new Map<string, ChildProcess>();
  const kills = { worker: 0, web: 0, approver: 0, redis: 0 };
  const started = Date.now();
  let lastProgress = Date.now();
  let progress = -1;
  let maxStallMs = 0;
  let written = 0;
  let done = false;
  let incidents: Incident[] = [];
  const timeline: Record<string, number | string>[] = [];
  world.redis.on('error', () => undefined);
  try {
    const startWorker = (i: number) => (workers[i] = spawnRole(world, [join(ROOT, 'dist/main.js'), '--role', 'worker', '--exit-with-parent']));
    const startWeb = (i: number) => (webs[i] = spawnRole(world, [join(ROOT, 'dist/main.js'), '--role', 'web', '--exit-with-parent']));
    for (let i = 0; i < workerCount; i++) startWorker(i);
    for (let i = 0; i < webCount; i++) startWeb(i);

    // Events arrive over the first rounds, so analyses run while the kills begin.
    const feed = (async () => {
      for (let round = 0; round < EVENTS_PER_FAMILY; round++) {
        await world.writeLogs('shop.jsonl', Array.from({ length: FAMILIES }, (_, f) => familyLines(f, round)).join(''));
        written += FAMILIES;
        await sleep(1_500);
      }
    })();

    // The approver: approves each proposal shown, by the hash it was shown; killed now and then mid-approval.
    const approve = async () => {
      for (const incident of incidents.filter((i) => i.state === 'awaiting_approval' && i.proposal)) {
        if (alive(approvers.get(incident.id))) continue;
        const child = spawnRole(world, [join(ROOT, 'dist/cli/medic.js'), 'approve', incident.id, incident.proposal!.contentHash]);
        approvers.set(incident.id, child);
        if (Math.random() < 0.4) {
          setTimeout(() => {
            if (alive(child)) {
              child.kill('SIGKILL');
              kills.approver += 1;
            }
          }, 500 + Math.random() * 3_000).unref();
        }
      }
    };

    // The chaos: a SIGKILL every 2.5–5 s on a worker or the web role that is up; Redis once, mid-run.
    const chaos = (async () => {
      let redisKilled = false;
      while (!done) {
        await sleep(2_500 + Math.random() * 2_500);
        if (done) break;
        const total = kills.worker + kills.web + kills.approver;
        if (!redisKilled && total >= MIN_KILLS / 2) {
          redisKilled = true;
          timeline.push({ at_s: (Date.now() - started) / 1000, kill: options.cluster ? 'redis master' : 'redis' });
          await redis.kill();
          kills.redis += 1;
          continue;
        }
        if (total >= MIN_KILLS + 2) continue;
        // The supervisor below restarts what died, as a container restart policy would.
        // Never the last worker that is up: a fleet with none left waits on process boot (see boot_s_p50),
        // which measures how fast node starts on this machine, not how Medic recovers.
        const working = workers.filter((w) => alive(w) && up.has(w!)).length;
        const targets = [...workers.map((w) => ({ child: w, role: 'worker' as const })), ...webs.map((w) => ({ child: w, role: 'web' as const }))]
          .filter((t) => alive(t.child) && up.has(t.child!) && (t.role === 'web' || working > 1));
        const target = targets[Math.floor(Math.random() * targets.length)];
        if (target) {
          target.child!.kill('SIGKILL');
          kills[target.role] += 1;
          timeline.push({ at_s: (Date.now() - started) / 1000, kill: target.role });
        }
      }
    })();

    // Watch: progress, stalls, approvals; done once every family's incident is fixed and the kills are in.
    while (Date.now() - started < DEADLINE_MS) {
      await sleep(250);
      const seen = await store.list({ limit: 1_000 }).catch(() => undefined);
      // What the stalled incidents waited in (state and last step), to tell a slow step from a lost job.
      const waited = stallSummary(incidents);
      if (seen) incidents = seen;
      const now = progressOf(incidents);
      if (now > progress) {
        // Stalls count from the first step: the fleet's first boot is not a crash's doing.
        const stalled = progress <= 0 ? 0 : Date.now() - lastProgress;
        if (stalled > 5_000) timeline.push({ at_s: (Date.now() - started) / 1000, stall_s: stalled / 1000, waited });
        progress = now;
        lastProgress = Date.now();
      }
      const finished = incidents.length >= FAMILIES && incidents.every((i) => i.state === 'fixed');
      const killed = kills.worker + kills.web + kills.approver >= MIN_KILLS && kills.redis > 0;
      if (!finished && progress > 0) maxStallMs = Math.max(maxStallMs, Date.now() - lastProgress);
      if (finished && killed) break;
      if (seen) await approve();
      // The restart policy: whatever died (killed, or exited on its own) is started again.
      for (let i = 0; i < workerCount; i++) if (!alive(workers[i])) startWorker(i);
      for (let i = 0; i < webCount; i++) if (!alive(webs[i])) startWeb(i);
    }
    done = true;
    await Promise.all([feed, chaos]);

    const counted = await Promise.all(incidents.map(async (i) => (await store.stats(i.id))?.count ?? 0));
    const events = counted.reduce((a, b) => a + b, 0);
    const transcript = (await reader.lrange(`${world.prefix}console:transcript`, 0, -1)).map((row) => JSON.parse(row) as { kind: string; key: string });
    const posts = transcript.filter((t) => t.kind === 'post');
    const branches = fixBranches(join(world.env.MEDIC_DATA_DIR!, 'remotes/sample-service.git'));
    const branchIncidents = new Set(branches.map((b) => b.replace(/^fix\//, '').replace(/-\d{14}$/, '')));
    const scopes = new Set(incidents.map((i) => i.fingerprint.split(':')[0]));
    const states = incidents.reduce<Record<string, number>>((acc, i) => ({ ...acc, [i.state]: (acc[i.state] ?? 0) + 1 }), {});

    const lost = Math.max(0, written - events) + Math.max(0, FAMILIES - scopes.size);
    const duplicated = Math.max(0, incidents.length - scopes.size) + (posts.length - new Set(posts.map((p) => p.key)).size) + Math.max(0, posts.length - incidents.length) + (branches.length - branchIncidents.size) + Math.max(0, events - written);
    const stuck = incidents.filter((i) => i.state !== 'fixed' && i.state !== 'fix_failed').length;
    const fixFailed = incidents.filter((i) => i.state === 'fix_failed').length;
    const totalKills = kills.worker + kills.web + kills.approver + kills.redis;
    const [load1] = loadavg();
    return {
      headline: {
        lost, duplicated, stuck, fix_failed_by_crash: fixFailed, max_stall_s: Math.round(maxStallMs / 100) / 10,
        kills: totalKills, worker_kills: kills.worker, web_kills: kills.web, approver_kills: kills.approver, redis_kills: kills.redis,
        incidents: incidents.length, events_written: written, events_counted: events, cards: posts.length, branches: branches.length,
        boot_s_p50: [...boots].sort((a, b) => a - b)[Math.floor(boots.length / 2)] ?? 0,
        drill_seconds: Math.round((Date.now() - started) / 1000), load_average_1m: Math.round((load1 ?? 0) * 100) / 100, cores: cpus().length,
      },
      table: {
        columns: ['figure', 'value'],
        rows: [
          ['families / events written', `${FAMILIES} / ${written}`],
          ['incidents / events counted', `${incidents.length} / ${events}`],
          ['cards / branches', `${posts.length} / ${branches.length}`],
          ['states', JSON.stringify(states)],
          ['kills (worker, web, approver, redis)', `${kills.worker}, ${kills.web}, ${kills.approver}, ${kills.redis}`],
          ['lost / duplicated / stuck / fix_failed', `${lost} / ${duplicated} / ${stuck} / ${fixFailed}`],
          ['max stall (s)', Math.round(maxStallMs / 100) / 10],
        ],
      },
      detail: {
        timeline, states, stuck: incidents.filter((i) => i.state !== 'fixed').map((i) => ({ id: i.id, state: i.state, error: i.error })), env: CHAOS_ENV,
        redis: options.cluster ? 'cluster: 3 masters, 1 replica each' : 'one server (AOF, fsync always)', workers: workerCount, webs: webCount,
        cells, shop_cell: cellOfService('shop', cells),
      },
    };
  } finally {
    done = true;
    for (const child of spawned) if (alive(child)) child.kill('SIGKILL');
    await sleep(500);
    reader.disconnect();
    await world.close().catch(() => undefined);
    await redis.stop();
  }
}
