/**
 * Ack latency of Medic's Slack app under load: 50 concurrent signed block_actions (Approve clicks)
 * against the real Bolt HTTP receiver, with a use-case that only enqueues (as the real one does).
 * The clock stops when the HTTP response (the ack) arrives; the listener's follow-up ephemeral to
 * the sandbox's Web API keeps running after it, as in production.
 *
 * The Slack app runs in its own process (this file, forked with `--slack-app`), so the load
 * generator and the sandbox standing in for Slack do not share its event loop, as in production.
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

const SECRET = 'bench-signing-secret';
const TOKEN = 'xoxb-bench';
const CONCURRENCY = 50;
const ROUNDS = 20;

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
    const used = process.cpuUsage(cpu);
    process.send?.({ enqueued: queue.length, cpuMs: (used.user + used.system) / 1000 });
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
  child.send('mark');
  const latencies: number[] = [];
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round++) latencies.push(...(await Promise.all(Array.from({ length: CONCURRENCY }, one))));
  const seconds = (performance.now() - started) / 1000;
  // Let the listeners' ephemerals (sent after each ack) land before the sandbox goes away.
  const total = latencies.length + CONCURRENCY;
  while (sandbox.state.calls.filter((c) => c.method === 'chat.postEphemeral').length < total) await new Promise((r) => setTimeout(r, 20));
  const { enqueued, cpuMs } = await new Promise<{ enqueued: number; cpuMs: number }>((resolve) => {
    child.once('message', (m: { enqueued: number; cpuMs: number }) => resolve(m));
    child.send('stop');
  });
  await sandbox.close();
  const sorted = [...latencies].sort((a, b) => a - b);
  const round2 = (n: number) => Math.round(n * 100) / 100;
  const headline = {
    ack_p50_ms: round2(percentile(sorted, 50)),
    ack_p99_ms: round2(percentile(sorted, 99)),
    ack_max_ms: round2(sorted.at(-1) ?? 0),
    interactions_per_s: Math.round(latencies.length / seconds),
    // CPU the Slack app spent per interaction (ack + use-case + ephemeral): independent of machine load.
    app_cpu_ms_per_interaction: round2(cpuMs / latencies.length),
  };
  return {
    headline,
    table: {
      columns: ['concurrency', 'requests', 'p50 ms', 'p99 ms', 'max ms', 'req/s', 'app cpu ms/req', 'target p99'],
      rows: [[CONCURRENCY, latencies.length, headline.ack_p50_ms, headline.ack_p99_ms, headline.ack_max_ms, headline.interactions_per_s, headline.app_cpu_ms_per_interaction, '≤ 100 ms']],
    },
    detail: { loadavg: loadavg().map((n) => round2(n)), cpus: cpus().length, concurrency: CONCURRENCY, rounds: ROUNDS, requests: latencies.length, enqueued, node: process.version },
  };
}
