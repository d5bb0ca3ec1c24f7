/**
 * Ack latency of Medic's Slack app under load: 50 concurrent signed block_actions (Approve clicks)
 * against the real Bolt HTTP receiver, with a use-case that only enqueues (as the real one does).
 * The clock stops when the HTTP response (the ack) arrives; the listener's follow-up ephemeral to
 * the sandbox's Web API keeps running after it, as in production.
 *
 * The Slack app runs in its own process (this file, forked with `--slack-app`), so the load
 * generator and the sandbox standing in for Slack do not share its event loop, as in production.
 * Five runs of 20 rounds: ack_p99_ms is the median of their p99s; ack_p99_ms_under_storm the same
 * while a worker role, in another process, ingests and analyses a storm of 100,000 events.
 */
import { fork } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createSlackApp } from '../src/adapters/slack/create-slack-app.js';
import { createConfiguredAuthority } from '../src/gateway/authority/authority.js';
import type { CommandResult, IncidentCommands } from '../src/use-cases/incident-commands.js';
import { createSlackSandbox } from '../src/sandbox/create-slack-sandbox.js';
import { SANDBOX_BOT } from '../src/sandbox/sandbox-users.js';
import { formBody, postSigned } from '../src/sandbox/sign-request.js';
import { buildBlockActions } from '../test/fixtures/slack/build-payloads.js';
import type { BenchReport } from './report.js';
import { createIncidentStore } from '../src/adapters/redis/incident-store.js';
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

/** The child: Medic's Slack app with a use-case that only enqueues, reporting its events URL. */
async function runSlackApp(apiUrl: string): Promise<void> {
  const queue: string[] = [];
  const enqueue = async (): Promise<CommandResult> => {
    queue.push('apply-fix');
    return { ok: false, code: 'ERR_UNAUTHORIZED', message: 'queued' };
  };
  const commands = { approve: enqueue, reject: enqueue, rerun: enqueue, feedback: enqueue, status: async () => undefined, list: async () => [] } as IncidentCommands;
  const authority = createConfiguredAuthority({ approvers: ['U0APPROVER'], elevatedApprovers: [] });
  const slack = createSlackApp({ botToken: TOKEN, signingSecret: SECRET, apiUrl, port: 0, host: '127.0.0.1', commands, authority, retries: 0, botId: SANDBOX_BOT.botId, botUserId: SANDBOX_BOT.userId });
  const { eventsUrl } = await slack.start();
  process.send?.({ eventsUrl });
  let cpu = process.cpuUsage();
  process.on('message', (m: string) => {
    // 'mark' starts the measured window (after warm-up); 'stop' reports the app's CPU time in it.
    if (m === 'mark') {
      cpu = process.cpuUsage();
      queue.length = 0;
      return;
    }
    if (m === 'report') {
      const used = process.cpuUsage(cpu);
      process.send?.({ enqueued: queue.length, cpuMs: (used.user + used.system) / 1000 });
      return;
    }
    void slack.stop().then(() => process.exit(0));
  });
}

if (process.argv.includes('--slack-app')) await runSlackApp(process.argv[process.argv.indexOf('--slack-app') + 1] ?? '');

export default async function (): Promise<BenchReport> {
  const sandbox = await createSlackSandbox({ port: 0, signingSecret: SECRET, botToken: TOKEN, medicEventsUrl: 'http://127.0.0.1:9/unused' });
  const child = fork(fileURLToPath(import.meta.url), ['--slack-app', sandbox.apiUrl], { execArgv: process.execArgv, stdio: 'inherit' });
  const eventsUrl = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { eventsUrl?: string }) => resolve(m.eventsUrl ?? ''));
    child.once('exit', (code) => reject(new Error(`the Slack app exited with ${code}`)));
  });
  const value = JSON.stringify({ incidentId: 'inc-bench', proposalHash: 'h'.repeat(64) });
  const one = async (): Promise<number> => {
    const body = formBody({ payload: JSON.stringify(buildBlockActions({ value, channel: sandbox.channelId })) });
    const started = performance.now();
    const result = await postSigned(eventsUrl, SECRET, body);
    const elapsed = performance.now() - started;
    if (result.status !== 200) throw new Error(`ack answered ${result.status}`);
    return elapsed;
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, one)); // warm-up: JIT, sockets
  while (sandbox.state.calls.filter((c) => c.method === 'chat.postEphemeral').length < CONCURRENCY) await new Promise((r) => setTimeout(r, 20));
  const rounds = async (): Promise<{ latencies: number[]; seconds: number }> => {
    const latencies: number[] = [];
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round++) latencies.push(...(await Promise.all(Array.from({ length: CONCURRENCY }, one))));
    return { latencies, seconds: (performance.now() - started) / 1000 };
  };
  const ephemeralsLanded = async (total: number) => {
    // Let the listeners' ephemerals (sent after each ack) land before going on.
    while (sandbox.state.calls.filter((c) => c.method === 'chat.postEphemeral').length < total) await new Promise((r) => setTimeout(r, 20));
  };
  child.send('mark');
  const loadBefore = loadavg()[0] ?? 0;
  const runs: { latencies: number[]; seconds: number }[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await rounds());
  const latencies = runs.flatMap((r) => r.latencies);
  const seconds = runs.reduce((a, r) => a + r.seconds, 0);
  await ephemeralsLanded(latencies.length + CONCURRENCY);
  const { enqueued, cpuMs } = await new Promise<{ enqueued: number; cpuMs: number }>((resolve) => {
    child.once('message', (m: { enqueued: number; cpuMs: number }) => resolve(m));
    child.send('report');
  });
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
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.send('stop');
  });
  await sandbox.close();
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
    // CPU the Slack app spent per interaction (ack + use-case + ephemeral): independent of machine load.
    app_cpu_ms_per_interaction: round2(cpuMs / latencies.length),
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
      loadavg_before: round2(loadBefore), loadavg_after: round2(loadAfter), cpus: cpus().length, concurrency: CONCURRENCY, rounds: ROUNDS, requests: latencies.length, enqueued,
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
