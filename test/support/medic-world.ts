import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { createAdapters } from '../../src/app/create-adapters.js';
import type { Medic } from '../../src/app/create-medic.js';
import { createMedicCells, type CelledMedic } from '../../src/app/cells/create-cells.js';
import { cellPrefixes } from '../../src/domain/cells.js';
import type { SlackSettings } from '../../src/app/chat-mode.js';
import type { Incident } from '../../src/domain/incident.js';
import { createRedis, deleteByPrefix, type RedisClient } from '../../src/adapters/redis/connect.js';
import type { RedisTarget } from '../../src/config/sections/redis.js';
import { loadConfig } from '../../src/config/load-config.js';
import { createLogger } from '../../src/observability/logger.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { TEST_REDIS_URL } from './redis.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const APPROVER = 'U_APPROVER';

/** The scripted answers that fix the sample service's checkout divide-by-zero. */
export async function checkoutFixScript(): Promise<Record<string, unknown[]>> {
  const before = await readFile(join(ROOT, 'data/sample-service/src/checkout/discounts.ts'), 'utf8');
  const after = before.replace(
    '  const perItem = Math.floor(amount / itemCount);',
    '  if (itemCount === 0) return lines.map((line) => ({ ...line, discount: 0 }));\n  const perItem = Math.floor(amount / itemCount);',
  );
  return {
    rca: [{
      rootCause: 'spreadDiscount divides the order discount by the number of discountable items, which is zero for carts of gift cards and shipping only.',
      contributingFactors: ['the recent change that spreads discounts across items'],
      evidenceIds: ['log-0', 'log-1', 'not-shown-9'],
      impactedComponent: 'checkout/discounts',
      severity: 'error',
      confidence: 0.86,
      summary: 'Division by zero in discount spreading.',
      sequenceOfEvents: ['checkout started', 'discount applied', 'RangeError thrown'],
    }],
    recommend: [{ kind: 'fix', summary: 'Skip spreading when no item can carry a discount.', steps: ['guard itemCount === 0'], risk: 'low' }],
    fix: [{ file: 'src/checkout/discounts.ts', newContent: after, explanation: 'Return undiscounted lines when no item is discountable.' }],
  };
}

/** One checkout divide-by-zero error (with correlated noise) as a JSON-lines log. */
export function checkoutErrorLines(n = 1, base = Date.parse('2026-11-30T09:00:00.000Z')): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const t = (ms: number) => new Date(base + i * 60_000 + ms).toISOString();
    const ids = { requestId: `req-${i}`, sessionId: `s-${i}`, orderNumber: `SO-${1000 + i}` };
    lines.push(JSON.stringify({ time: t(0), level: 'INFO', service: 'shop', message: 'checkout started', ...ids, items: 1, categories: 'gift-card' }));
    lines.push(JSON.stringify({
      time: t(5), level: 'ERROR', service: 'shop', message: 'request failed: RangeError: Invalid discount per item: Infinity', ...ids, errorCode: 'DISCOUNT_INVALID',
      stack: 'RangeError: Invalid discount per item: Infinity\n    at spreadDiscount (/srv/shop/src/checkout/discounts.ts:44:11)\n    at applyDiscounts (/srv/shop/src/checkout/discounts.ts:58:10)\n    at priceCart (/srv/shop/src/checkout/cart-total.ts:30:18)\n    at placeOrder (/srv/shop/src/checkout/checkout.ts:40:17)',
    }));
  }
  return lines.join('\n') + '\n';
}

/** Two more failure families in the same code: different exceptions, messages and frames. */
export function discountFailureLines(base = Date.parse('2026-11-30T09:30:00.000Z')): string {
  const at = (ms: number) => new Date(base + ms).toISOString();
  return [
    { time: at(0), level: 'ERROR', service: 'shop', message: "discount spread failed: TypeError: Cannot read properties of undefined (reading 'priceCents')", requestId: 'req-t1', errorCode: 'DISCOUNT_SPREAD',
      stack: "TypeError: Cannot read properties of undefined (reading 'priceCents')\n    at spreadDiscount (/srv/shop/src/checkout/discounts.ts:47:30)\n    at applyDiscounts (/srv/shop/src/checkout/discounts.ts:58:10)\n    at priceCart (/srv/shop/src/checkout/cart-total.ts:30:18)" },
    { time: at(60_000), level: 'ERROR', service: 'shop', message: 'order pricing aborted: Error: discount total 1200 exceeds order total 900', requestId: 'req-t2', errorCode: 'DISCOUNT_TOTAL',
      stack: 'Error: discount total 1200 exceeds order total 900\n    at orderDiscount (/srv/shop/src/checkout/discounts.ts:33:11)\n    at applyDiscounts (/srv/shop/src/checkout/discounts.ts:56:18)\n    at priceCart (/srv/shop/src/checkout/cart-total.ts:30:18)' },
  ].map((line) => JSON.stringify(line)).join('\n') + '\n';
}

export interface World {
  dir: string;
  prefix: string;
  env: Record<string, string>;
  redis: RedisClient;
  chatOut: PassThrough;
  chatText(): string;
  writeLogs(name: string, text: string): Promise<void>;
  /** `slack`: the Slack (or sandbox) Web API the chat adapter talks to; the console chat without it. */
  startMedic(overrides?: Record<string, string>, slack?: SlackSettings): Promise<Medic>;
  /** Runs `src/main.ts --role worker` as a separate process on the same Redis and data. */
  spawnWorker(overrides?: Record<string, string>): ChildProcess;
  waitFor<T>(probe: () => Promise<T | undefined | false>, what: string, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

/** Where a world's Redis is when it is not the shared test server: the variables that say so, and the target. */
export interface WorldRedis {
  env: Record<string, string>;
  target: RedisTarget;
}

export interface WorldOptions {
  llm?: 'scripted' | 'offline';
  script?: Record<string, unknown[]>;
  /** A Redis Cluster or Sentinel started by the test; the keys then carry a hash tag, as Medic's default prefix does. */
  redis?: WorldRedis;
  /** Another single Redis (a drill's own server, which it may kill). */
  redisUrl?: string;
  /** MEDIC_REDIS_CELLS: the state cut into this many cells, each under its own hash tag. */
  cells?: number;
}

export async function createWorld(options: WorldOptions = {}): Promise<World> {
  const dir = await mkdtemp(join(tmpdir(), 'medic-world-'));
  const id = randomUUID().slice(0, 8);
  const prefix = options.redis || options.cells ? `{medic-test-${id}}:` : `medic-test-${id}:`;
  await mkdir(join(dir, 'logs'), { recursive: true });
  const scriptFile = join(dir, 'llm-script.json');
  await writeFile(scriptFile, JSON.stringify(options.script ?? (await checkoutFixScript())));
  const env: Record<string, string> = {
    NODE_ENV: 'test', LOG_LEVEL: 'warn', ...(options.redis?.env ?? { REDIS_URL: options.redisUrl ?? TEST_REDIS_URL }), MEDIC_REDIS_PREFIX: prefix,
    MEDIC_DATA_DIR: join(dir, 'data'), MEDIC_SAMPLE_DIR: join(ROOT, 'data'), MEDIC_LOG_DIR: join(dir, 'logs'),
    MEDIC_LLM: options.llm ?? 'scripted', MEDIC_LLM_SCRIPT: scriptFile, MEDIC_CHAT: 'console',
    MEDIC_APPROVERS: APPROVER, MEDIC_JOB_LOCK_MS: '2000', MEDIC_POLL_INTERVAL_MS: '500', PORT: '0',
    ...(options.cells ? { MEDIC_REDIS_CELLS: String(options.cells) } : {}),
  };
  const redis = createRedis(options.redis?.target ?? options.redisUrl ?? TEST_REDIS_URL, 'medic-test-world');
  const chatOut = new PassThrough();
  let chatText = '';
  chatOut.on('data', (chunk: Buffer) => (chatText += chunk.toString()));
  const medics: Medic[] = [];
  const children: ChildProcess[] = [];

  return {
    dir, prefix, env, redis, chatOut,
    chatText: () => chatText,
    writeLogs: (name, text) => writeFile(join(dir, 'logs', name), text, { flag: 'a' }),
    async startMedic(overrides = {}, slack) {
      const config = loadConfig({ ...env, ...(slack ? { MEDIC_CHAT: 'auto' } : {}), ...overrides });
      const logger = createLogger({ level: 'silent' });
      const adapters = await createAdapters({ config, redis, logger, chatOut, ...(slack ? { slack } : {}) });
      const medic = createMedicCells({ config, redis, adapters, logger, metrics: createMetrics() });
      medics.push(medic);
      return medic;
    },
    spawnWorker(overrides = {}) {
      // The bundle the global setup built from today's sources: no transpiler at each start.
      const child = spawn(process.execPath, [join(ROOT, 'dist/main.js'), '--role', 'worker', '--exit-with-parent'], {
        cwd: ROOT, env: { ...process.env, ...env, ...overrides }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.resume();
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
      Object.defineProperty(child, 'stderrText', { get: () => stderr });
      children.push(child);
      return child;
    },
    async waitFor(probe, what, timeoutMs = 45_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = await probe();
        if (value !== undefined && value !== false) return value;
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async close() {
      // Wait for every worker process to be gone, or it would write BullMQ keys after the cleanup.
      await Promise.all(children.map((child) => {
        if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        return gone;
      }));
      for (const medic of medics) await medic.close();
      for (const keyspace of new Set([prefix, ...cellPrefixes(prefix, options.cells ?? 1)])) await deleteByPrefix(redis, keyspace);
      redis.disconnect();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Approves an incident's proposal as the test approver and waits until its PR is opened. */
export async function approveAndAwaitPullRequest(world: World, medic: Medic, incident: Incident): Promise<Incident> {
  const result = await medic.commands.approve({ incidentId: incident.id, proposalHash: incident.proposal!.contentHash, caller: { userId: APPROVER, via: 'slack' } });
  if (!result.ok) throw new Error(result.message);
  return world.waitFor(async () => {
    const current = await medic.store.get(incident.id);
    return current?.fix?.pullRequest ? current : undefined;
  }, 'the pull request');
}

/** The incident once its fix has ended, published (`fixed`) or not (`fix_failed`). */
export async function awaitFixEnd(world: World, medic: Medic, id: string, timeoutMs = 60_000): Promise<Incident> {
  return world.waitFor(async () => {
    const incident = await medic.store.get(id);
    return incident?.state === 'fixed' || incident?.state === 'fix_failed' ? incident : undefined;
  }, `the fix of ${id}`, timeoutMs);
}

/** A world with one checkout error logged and Medic's workers running on it. */
export async function startCheckoutWorld(llm: 'scripted' | 'offline', overrides: Record<string, string> = {}, redis?: WorldRedis): Promise<{ world: World; medic: Medic }> {
  const world = await createWorld({ llm, ...(redis ? { redis } : {}) });
  await world.writeLogs('shop.jsonl', checkoutErrorLines(1));
  const medic = await world.startMedic(overrides);
  await medic.startWorkers();
  return { world, medic };
}

/** True once no card delivery is queued, running or waiting for a retry. */
export async function cardsDelivered(medic: Medic): Promise<boolean> {
  for (const cell of cellsOf(medic)) {
    const counts = await cell.queues.deliverCard.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    if (!Object.values(counts).every((n) => n === 0)) return false;
  }
  return true;
}

/** A Medic's cells (MEDIC_REDIS_CELLS), or the Medic itself. */
export function cellsOf(medic: Medic): Medic[] {
  return 'cells' in medic ? (medic as CelledMedic).cells : [medic];
}

/**
 * True once `n` analysis jobs have ended: a probe that costs one Redis call, for benches that
 * must not spend their own time parsing every incident record while they time Medic's.
 */
export async function analysesEnded(medic: Medic, n: number): Promise<boolean> {
  let ended = 0;
  for (const cell of cellsOf(medic)) {
    const counts = await cell.queues.analyze.getJobCounts('completed', 'failed');
    ended += (counts.completed ?? 0) + (counts.failed ?? 0);
  }
  return ended >= n;
}

/** The first incident that reaches one of `states`, once its card shows it (cards are their own job). */
export async function awaitIncident(world: World, medic: Medic, states: Incident['state'][], deadline?: number): Promise<Incident> {
  const left = () => (deadline === undefined ? undefined : Math.max(0, deadline - Date.now()));
  const reached = await world.waitFor(async () => (await medic.store.list({ states }))[0], `an incident in ${states.join(' or ')}`, left());
  return world.waitFor(async () => {
    const incident = await medic.store.get(reached.id);
    return incident?.card && (await cardsDelivered(medic)) ? incident : undefined;
  }, `the card of ${reached.id}`, left());
}
