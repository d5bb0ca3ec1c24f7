/**
 * Gateway decision latency under a sustained 10,000 intents per minute for 60 s, including the
 * audit append to Redis (one MULTI/XADD per call), then a count of the audit stream: every
 * intent must have left exactly one record. Arrivals are open-loop (fired on schedule, not after
 * the previous answer) so a slow call cannot hide the queueing it causes.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { createAuditLog } from '../src/adapters/redis/audit-log.js';
import { deleteByPrefix } from '../src/adapters/redis/connect.js';
import { createApprovalStore, createTargetLocks } from '../src/gateway/effect-gate/approval-store.js';
import { createConfiguredAuthority } from '../src/gateway/authority/authority.js';
import type { InvocationContext, ToolIntent } from '../src/gateway/registry/effect.js';
import { createToolGateway } from '../src/gateway/gateway.js';
import { parsePolicy } from '../src/gateway/actions/policy.js';
import { createToolRegistry } from '../src/gateway/registry/registry.js';
import type { BenchReport } from './report.js';

const REDIS_URL = process.env.MEDIC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PER_MINUTE = Number(process.env.MEDIC_BENCH_GATEWAY_PER_MINUTE ?? 10_000);
const SECONDS = Number(process.env.MEDIC_BENCH_GATEWAY_SECONDS ?? 60);
const APPROVER = 'U-BENCH-APPROVER';

const POLICY = parsePolicy(
  `version: 1
actions:
  - { name: deploy.scale, summary: scale, effect: MUTATING, permission: approve, reversible: true, webhook: /hooks/scale, target: service,
      args: { service: { type: slug }, replicas: { type: int, min: 1, max: 10 } } }
`,
  'bench-policy',
);

type Kind = 'read' | 'denied' | 'mutating' | 'proposed';

/** 70% reads, 15% refusals (selectors, unknown tools), 10% approved mutations, 5% proposals. */
function intentFor(i: number): { kind: Kind; intent: ToolIntent; ctx: InvocationContext } {
  const slot = i % 20;
  const ctx: InvocationContext = { caller: { kind: 'pipeline' }, incidentId: `inc-${i % 50}`, traceId: `t-${i}` };
  if (slot < 14) return { kind: 'read', intent: { tool: 'code.read-file', args: { path: `src/file-${i % 200}.ts` } }, ctx };
  if (slot < 16) return { kind: 'denied', intent: { tool: 'deploy.scale', args: { service: '*', replicas: 3 } }, ctx };
  if (slot < 17) return { kind: 'denied', intent: { tool: 'git.force-push', args: { branch: 'main' } }, ctx };
  if (slot < 19) return { kind: 'mutating', intent: { tool: 'deploy.scale', args: { service: `svc-${i}`, replicas: 3 } }, ctx };
  return { kind: 'proposed', intent: { tool: 'deploy.scale', args: { service: `other-${i}`, replicas: 2 } }, ctx };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export default async function benchGateway(): Promise<BenchReport> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const prefix = `medic-bench-gw-${randomUUID().slice(0, 8)}:`;
  try {
    const audit = createAuditLog(redis, prefix);
    const approvals = createApprovalStore(redis, prefix, { ttlMs: 3_600_000 });
    const gateway = createToolGateway({
      registry: createToolRegistry({
        repo: { check: async () => ({ name: 'repo', adapter: 'bench', ok: true, detail: '' }), sync: async () => undefined, listFiles: async () => [], readFile: async (path) => `// ${path}`, recentChanges: async () => [], blame: async () => undefined, blameFunction: async () => undefined, commitFileChange: async () => undefined },
        automation: { run: async () => ({ ok: true }) },
        actions: POLICY,
      }),
      authority: createConfiguredAuthority({ approvers: [APPROVER], elevatedApprovers: [] }),
      audit,
      approvals,
      locks: createTargetLocks(redis, prefix, { leaseMs: 60_000 }),
    });

    const total = Math.round((PER_MINUTE / 60) * SECONDS);
    const intervalMs = 60_000 / PER_MINUTE;
    const plan = Array.from({ length: total }, (_, i) => intentFor(i));
    // Approvals are recorded before the clock starts: the approve click is not part of the decision.
    const spec = gateway.registry.get('deploy.scale')!;
    for (const { kind, intent, ctx } of plan) {
      if (kind === 'mutating') await approvals.recordApproval({ tool: 'deploy.scale', argsHash: gateway.registry.approvalHash(spec, intent.args, ctx), incidentId: ctx.incidentId!, approverId: APPROVER });
    }
    // Warm-up outside the measurement (JIT, connection), then an empty stream to count.
    for (let i = 0; i < 200; i += 1) await gateway.invoke({ tool: 'code.read-file', args: { path: 'src/warm.ts' } }, { caller: { kind: 'pipeline' } });
    await deleteByPrefix(redis, `${prefix}audit`);

    const latencies: Record<Kind, number[]> = { read: [], denied: [], mutating: [], proposed: [] };
    const all: number[] = [];
    const outcomes: Record<string, number> = {};
    const inflight: Promise<void>[] = [];
    const loadBefore = loadavg()[0] ?? 0;
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    for (let i = 0; i < total; i += 1) {
      const due = start + i * intervalMs;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const { kind, intent, ctx } = plan[i]!;
      const began = performance.now();
      inflight.push(
        gateway.invoke(intent, ctx).then((result) => {
          const ms = performance.now() - began;
          latencies[kind].push(ms);
          all.push(ms);
          outcomes[`${kind}:${result.status}`] = (outcomes[`${kind}:${result.status}`] ?? 0) + 1;
        }),
      );
      if (inflight.length > 1_000) await Promise.all(inflight.splice(0));
    }
    await Promise.all(inflight);
    const elapsedS = (performance.now() - start) / 1_000;
    const cpu = process.cpuUsage(cpuBefore);
    const recorded = await redis.xlen(`${prefix}audit`);

    const sorted = [...all].sort((a, b) => a - b);
    const rows = (['read', 'denied', 'mutating', 'proposed'] as Kind[]).map((kind) => {
      const s = [...latencies[kind]].sort((a, b) => a - b);
      return [kind, s.length, percentile(s, 50), percentile(s, 95), percentile(s, 99)];
    });
    return {
      headline: {
        p50_ms: round(percentile(sorted, 50)),
        p95_ms: round(percentile(sorted, 95)),
        p99_ms: round(percentile(sorted, 99)),
        lost_audit_records: total - recorded,
        intents: total,
        intents_per_minute: Math.round((total / elapsedS) * 60),
      },
      table: { columns: ['kind', 'intents', 'p50 ms', 'p95 ms', 'p99 ms'], rows: [...rows, ['all', sorted.length, percentile(sorted, 50), percentile(sorted, 95), percentile(sorted, 99)]] },
      // CPU per intent vs the tail: on a machine whose load exceeds its cores, p95/p99 measure the scheduler.
      detail: { cpu_ms_per_intent: round((cpu.user + cpu.system) / 1_000 / total), load_average: [round(loadBefore), round(loadavg()[0] ?? 0)], seconds: round(elapsedS), target_per_minute: PER_MINUTE, audit_records: recorded, max_ms: round(sorted.at(-1) ?? 0), outcomes, redis: REDIS_URL.replace(/\/\/[^@]*@/, '//') },
    };
  } finally {
    await deleteByPrefix(redis, prefix);
    redis.disconnect();
  }
}

function round(value: number): number {
  return Math.round(value * 1_000) / 1_000;
}
