/**
 * Ack latency of Medic's Slack app under load: 50 concurrent signed block_actions (Approve clicks)
 * against the real Bolt HTTP receiver. As in a deployment, the web role verifies, queues the click
 * on a Redis stream and acks; a worker answers it (a use-case that only enqueues, as the real one
 * does, then the ephemeral to the sandbox's Web API). The clock stops when the ack arrives.
 *
 * The Slack app runs in its own process (this file, forked with `--slack-app`), and the worker that
 * answers clicks in another (`--click-answerer`), so the load generator and the sandbox standing in
 * for Slack share neither event loop, as in production.
 * Five runs of 20 rounds: ack_p99_ms is the median of their p99s; ack_p99_ms_under_storm the same
 * while a worker role, in another process, ingests and analyses a storm of 100,000 events.
 */
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createSlackApp } from '../src/adapters/slack/create-slack-app.js';
import { createConfiguredAuthority } from '../src/gateway/authority/authority.js';
import type { CommandResult, IncidentCommands } from '../src/use-cases/incident-commands.js';
import { createSlackSandbox } from '../src/sandbox/create-slack-sandbox.js';
import { SANDBOX_BOT } from '../src/sandbox/sandbox-users.js';
import { FORM_CONTENT_TYPE, formBody, signSlackRequest } from '../src/sandbox/sign-request.js';
import { buildBlockActions } from '../test/fixtures/slack/build-payloads.js';
import type { BenchReport } from './report.js';
import { createIncidentStore } from '../src/adapters/redis/incident-store.js';
import { createAuditLog } from '../src/adapters/redis/audit-log.js';
import { createClickFollowUpStream, startClickAnswerer } from '../src/adapters/redis/click-follow-up-stream.js';
import { deleteByPrefix } from '../src/adapters/redis/connect.js';
import { createRedisDeliveryClaims } from '../src/adapters/redis/delivery-claims.js';
import { createSlackChat } from '../src/adapters/slack/slack-chat.js';
import { createSlackWebClient } from '../src/adapters/slack/web-client.js';
import { answerClick, tellThroughChat } from '../src/use-cases/answer-click.js';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { TEST_REDIS_URL } from '../test/support/redis.js';
import { createWorld } from '../test/support/medic-world.js';
import { stormLines } from '../test/support/storm-events.js';

const SECRET = 'bench-signing-secret';
const TOKEN = 'xoxb-bench';
const CONCURRENCY = 50;
const ROUNDS = 20;
const RUNS = 5;
const STORM_EVENTS = 100_000;

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** A use-case that only enqueues (counted), as the real Approve does before the fix job runs. */
function enqueueOnly(): { commands: IncidentCommands; queue: string[] } {
  const queue: string[] = [];
  const enqueue = async (): Promise<CommandResult> => {
    queue.push('apply-fix');
    return { ok: false, code: 'ERR_UNAUTHORIZED', message: 'queued' };
  };
  const commands = { approve: enqueue, reject: enqueue, rerun: enqueue, feedback: enqueue, status: async () => undefined, list: async () => [], awaitingVerification: async () => [], timeline: async () => undefined } as IncidentCommands;
  return { commands, queue };
}

/** Answers the parent: 'mark' starts the measured window, 'report' sends the CPU used in it, else stop. */
function reportCpu(counted: () => number, stop: () => Promise<void>): void {
  let cpu = process.cpuUsage();
  let base = 0;
  process.on('message', (m: string) => {
    if (m === 'mark') {
      cpu = process.cpuUsage();
      base = counted();
      return;
    }
    if (m === 'report') {
      const used = process.cpuUsage(cpu);
      process.send?.({ counted: counted() - base, cpuMs: (used.user + used.system) / 1000 });
      return;
    }
    void stop().then(() => process.exit(0));
  });
}

/** The web role: Medic's Slack app, queueing each click for a worker, reporting its events URL. */
async function runSlackApp(apiUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  const { commands } = enqueueOnly();
  const authority = createConfiguredAuthority({ approvers: ['U0APPROVER'], elevatedApprovers: [] });
  const followUps = createClickFollowUpStream(redis, prefix);
  let queued = 0;
  const counting = { enqueue: async (click: Parameters<typeof followUps.enqueue>[0]) => { queued++; await followUps.enqueue(click); } };
  // Replay claims through Redis, as the web role keeps them (the worker claims a queued click's keys).
  const ledger = createRedisDeliveryClaims(redis, prefix);
  const slack = createSlackApp({ botToken: TOKEN, signingSecret: SECRET, apiUrl, port: 0, host: '127.0.0.1', commands, authority, followUps: counting, ledger, retries: 0, botId: SANDBOX_BOT.botId, botUserId: SANDBOX_BOT.userId });
  const { eventsUrl } = await slack.start();
  process.send?.({ eventsUrl });
  reportCpu(() => queued, async () => {
    await slack.stop();
    redis.disconnect();
  });
}

/** The worker answering clicks: replay claims, the use-case, then the ephemeral through the chat adapter, audited. */
async function runClickAnswerer(apiUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  const { commands, queue } = enqueueOnly();
  const chat = createSlackChat({ client: createSlackWebClient({ token: TOKEN, apiUrl }), channel: 'incidents' });
  const logger = { warn: (m: string) => process.stderr.write(`${m}\n`), error: (m: string) => process.stderr.write(`${m}\n`) };
  const claims = createRedisDeliveryClaims(redis, prefix);
  const deps = { commands, logger, tell: tellThroughChat(chat, createAuditLog(redis, prefix), logger), claim: (key: string) => claims.claim(key) };
  const answerer = await startClickAnswerer(redis, prefix, (click) => answerClick(deps, click), { logger });
  process.send?.({ ready: true });
  reportCpu(() => queue.length, async () => {
    await answerer.close();
    redis.disconnect();
  });
}

const role = (flag: string) => (process.argv.includes(flag) ? process.argv.slice(process.argv.indexOf(flag) + 1) : undefined);
const appArgs = role('--slack-app');
const answererArgs = role('--click-answerer');
if (appArgs) await runSlackApp(appArgs[0] ?? '', appArgs[1] ?? '');
if (answererArgs) await runClickAnswerer(answererArgs[0] ?? '', answererArgs[1] ?? '');

function report(child: ReturnType<typeof fork>): Promise<{ counted: number; cpuMs: number }> {
  return new Promise((resolve) => {
    child.once('message', (m: { counted: number; cpuMs: number }) => resolve(m));
    child.send('report');
  });
}

function stopChild(child: ReturnType<typeof fork>): Promise<void> {
  return new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.send('stop');
  });
}

export default async function (): Promise<BenchReport> {
  const sandbox = await createSlackSandbox({ port: 0, signingSecret: SECRET, botToken: TOKEN, medicEventsUrl: 'http://127.0.0.1:9/unused' });
  const prefix = `medic-bench-${randomUUID().slice(0, 8)}:`;
  const answerer = fork(fileURLToPath(import.meta.url), ['--click-answerer', sandbox.apiUrl, prefix], { execArgv: process.execArgv, stdio: 'inherit' });
  await new Promise<void>((resolve, reject) => {
    answerer.once('message', () => resolve());
    answerer.once('exit', (code) => reject(new Error(`the click answerer exited with ${code}`)));
  });
  const child = fork(fileURLToPath(import.meta.url), ['--slack-app', sandbox.apiUrl, prefix], { execArgv: process.execArgv, stdio: 'inherit' });
  const eventsUrl = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { eventsUrl?: string }) => resolve(m.eventsUrl ?? ''));
    child.once('exit', (code) => reject(new Error(`the Slack app exited with ${code}`)));
  });
  const value = JSON.stringify({ incidentId: 'inc-bench', proposalHash: 'h'.repeat(64) });
  // The load generator shares the machine's two cores with Medic: it builds and signs a burst
  // before the first request leaves, and sends over kept-alive sockets with node:http, so the
  // clock of each request measures the ack rather than the generator preparing the others.
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const target = new URL(eventsUrl);
  const send = (body: string): Promise<number> => {
    const headers = { 'content-type': FORM_CONTENT_TYPE, 'content-length': Buffer.byteLength(body), ...signSlackRequest(SECRET, body, Date.now() / 1000) };
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers, agent }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`ack answered ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(body);
    });
  };
  const burst = (): Promise<number[]> => {
    const bodies = Array.from({ length: CONCURRENCY }, () => formBody({ payload: JSON.stringify(buildBlockActions({ value, channel: sandbox.channelId })) }));
    return Promise.all(bodies.map(send));
  };
  await burst(); // warm-up: JIT, sockets
  while (sandbox.state.calls.filter((c) => c.method === 'chat.postEphemeral').length < CONCURRENCY) await new Promise((r) => setTimeout(r, 20));
  const rounds = async (): Promise<{ latencies: number[]; seconds: number }> => {
    const latencies: number[] = [];
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round++) latencies.push(...(await burst()));
    return { latencies, seconds: (performance.now() - started) / 1000 };
  };
  const ephemeralsLanded = async (total: number) => {
    // Let the listeners' ephemerals (sent after each ack) land before going on.
    while (sandbox.state.calls.filter((c) => c.method === 'chat.postEphemeral').length < total) await new Promise((r) => setTimeout(r, 20));
  };
  child.send('mark');
  answerer.send('mark');
  const loadBefore = loadavg()[0] ?? 0;
  const runs: { latencies: number[]; seconds: number }[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await rounds());
  const latencies = runs.flatMap((r) => r.latencies);
  const seconds = runs.reduce((a, r) => a + r.seconds, 0);
  await ephemeralsLanded(latencies.length + CONCURRENCY);
  const { counted: queued, cpuMs } = await report(child);
  const { counted: enqueued, cpuMs: answererCpuMs } = await report(answerer);
  // The same rounds while a worker role, in its own process, ingests and analyses a storm.
  const storm = await startStorm();
  const stormRuns: { latencies: number[]; seconds: number }[] = [];
  let stillRunning: boolean;
  try {
    for (let i = 0; i < RUNS; i++) stormRuns.push(await rounds());
    stillRunning = !(await storm.finished());
  } finally {
    await storm.close();
  }
  const stormLatencies = stormRuns.flatMap((r) => r.latencies);
  await ephemeralsLanded(latencies.length + stormLatencies.length + CONCURRENCY);
  agent.destroy();
  await stopChild(child);
  await stopChild(answerer);
  await sandbox.close();
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
  const sorted = [...latencies].sort((a, b) => a - b);
  const stormSorted = [...stormLatencies].sort((a, b) => a - b);
  const round2 = (n: number) => Math.round(n * 100) / 100;
  const p99s = runs.map((r) => percentile([...r.latencies].sort((a, b) => a - b), 99));
  const stormP99s = stormRuns.map((r) => percentile([...r.latencies].sort((a, b) => a - b), 99));
  const headline = {
    ack_p50_ms: round2(percentile(sorted, 50)),
    ack_p99_ms: round2(median(p99s)),
    ack_max_ms: round2(sorted.at(-1) ?? 0),
    ack_p99_ms_under_storm: round2(median(stormP99s)),
    interactions_per_s: Math.round(latencies.length / seconds),
    // CPU the web role spent per interaction (verify, parse, queue, ack): independent of machine load.
    app_cpu_ms_per_interaction: round2(cpuMs / latencies.length),
    // CPU the worker spent answering each (use-case, ephemeral, audit), off the web role's loop.
    answerer_cpu_ms_per_interaction: round2(answererCpuMs / latencies.length),
  };
  const loadAfter = loadavg()[0] ?? 0;
  return {
    headline,
    table: {
      columns: ['while', 'concurrency', 'requests', 'p50 ms', 'p99 ms', 'max ms', 'req/s', 'target p99'],
      rows: [
        ['idle worker', CONCURRENCY, latencies.length, headline.ack_p50_ms, headline.ack_p99_ms, headline.ack_max_ms, headline.interactions_per_s, '≤ 50 ms'],
        ['worker analysing a storm', CONCURRENCY, stormLatencies.length, round2(percentile(stormSorted, 50)), headline.ack_p99_ms_under_storm, round2(stormSorted.at(-1) ?? 0), Math.round(stormLatencies.length / stormRuns.reduce((a, r) => a + r.seconds, 0)), '≤ 100 ms'],
        ['load average 1m before / after', '', '', '', '', '', `${loadBefore.toFixed(2)} / ${loadAfter.toFixed(2)}`, ''],
      ],
    },
    detail: {
      loadavg_before: round2(loadBefore), loadavg_after: round2(loadAfter), cpus: cpus().length, concurrency: CONCURRENCY, rounds: ROUNDS, requests: latencies.length, queued, enqueued,
      p99_per_run_ms: p99s.map(round2), storm_p99_per_run_ms: stormP99s.map(round2),
      storm: { events: STORM_EVENTS, still_running_at_end: stillRunning, ack_p50_ms: round2(percentile(stormSorted, 50)) },
      app_cpu_ms_per_interaction: headline.app_cpu_ms_per_interaction, node: process.version,
    },
  };
}

/** A worker role (its own process) busy with a storm: started, and given time to be mid-ingest. */
async function startStorm(): Promise<{ finished(): Promise<boolean>; close(): Promise<void> }> {
  const world = await createWorld({ llm: 'scripted' });
  try {
    for (const [i, chunk] of stormLines({ total: STORM_EVENTS }).entries()) await world.writeLogs(`storm-${i}.jsonl`, chunk);
    world.spawnWorker();
    const store = createIncidentStore(world.redis, world.prefix);
    await world.waitFor(async () => (await store.list()).length > 0, 'the storm to start', 120_000);
    return {
      async finished() {
        const all = await store.list();
        return all.length >= 20 && all.every((i) => i.steps.card);
      },
      close: () => world.close(),
    };
  } catch (error) {
    await world.close();
    throw error;
  }
}
