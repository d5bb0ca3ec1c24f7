/** Builders for gateway tests: a real Redis, fake ports that count their calls, and example intents. */
import { LLM_UPSTREAM } from '../../src/gateway/registry/llm-tools.js';
import type { CheckProposal } from '../../src/ports/proposal-checks.js';
import type { Redis } from 'ioredis';
import { createAuditLog } from '../../src/adapters/redis/audit-log.js';
import type { ErrorEvent, RawLogLine } from '../../src/domain/event.js';
import { createFixProposal, type FixProposal } from '../../src/domain/fix.js';
import type { AuditLog } from '../../src/ports/audit.js';
import type { Authority } from '../../src/ports/authority.js';
import type { Chat } from '../../src/ports/chat.js';
import type { CodeRepository, FixPublisher, PullRequests } from '../../src/ports/code.js';
import type { LogSource } from '../../src/ports/log-source.js';
import { createApprovalStore, createTargetLocks, type ApprovalStore } from '../../src/gateway/effect-gate/approval-store.js';
import { createConfiguredAuthority } from '../../src/gateway/authority/authority.js';
import type { AutomationClient } from '../../src/gateway/actions/automation-client.js';
import { createBreakers, createReadCache, type Breakers } from '../../src/gateway/degradation/circuit-breaker.js';
import { createToolGateway, type ToolGateway } from '../../src/gateway/gateway.js';
import { parsePolicy, type ActionPolicy } from '../../src/gateway/actions/policy.js';
import { createToolRegistry, type ToolRegistryDeps } from '../../src/gateway/registry/registry.js';
import { createStepUpChallenges } from '../../src/gateway/effect-gate/step-up.js';

export const APPROVER = 'U-APPROVER';
export const SECOND_APPROVER = 'U-SECOND';
export const ELEVATED = 'U-ELEVATED';
export const STRANGER = 'U-STRANGER';
export const STEP_UP_SECRET = 'step-up-secret-for-tests-0123456789abcdef';

export function buildEvent(overrides: Partial<ErrorEvent> = {}): ErrorEvent {
  return {
    id: 'file:orders.log:42',
    source: 'file',
    time: '2025-03-01T10:00:00.000Z',
    service: 'orders-api',
    severity: 'error',
    message: 'NullPointerException in OrderRepository',
    raw: 'NullPointerException in OrderRepository',
    correlationIds: { txn_id: 'txn-123' },
    sessionId: 'sess-9',
    fields: {},
    ...overrides,
  };
}

export function buildProposal(): FixProposal {
  return createFixProposal({ file: 'src/orders/order-repository.ts', before: 'const a = 1;\n', after: 'const a = 2;\n', explanation: 'guard' });
}

/** Fake ports: each method counts its calls in `calls`. */
export function buildFakePorts() {
  const calls: Record<string, number> = {};
  const hit = (name: string) => void (calls[name] = (calls[name] ?? 0) + 1);
  const check = async () => ({ name: 'fake', adapter: 'fake', ok: true, detail: '' });
  const logs: LogSource = {
    name: 'fake-logs',
    check,
    poll: async () => (hit('poll'), { events: [], checkpoint: 'c1' }),
    window: async (): Promise<RawLogLine[]> => (hit('window'), [{ sourceId: 's1', time: 't', level: 'error', service: 'orders-api', message: 'boom', correlationIds: {} }]),
  };
  const chat: Chat = {
    check,
    postCard: async () => (hit('postCard'), { channel: 'C1', ts: '1.1' }),
    updateCard: async () => void hit('updateCard'),
    replyInThread: async () => void hit('replyInThread'),
    postEphemeral: async () => void hit('postEphemeral'),
  };
  const repo: CodeRepository = {
    check,
    sync: async () => void hit('sync'),
    listFiles: async () => (hit('listFiles'), ['src/a.ts']),
    readFile: async (path) => (hit('readFile'), `content of ${path}`),
    recentChanges: async () => (hit('recentChanges'), []),
    blame: async () => (hit('blame'), undefined),
    blameFunction: async () => (hit('blameFunction'), undefined),
    commitFileChange: async () => (hit('commitFileChange'), undefined),
  };
  const publisher: FixPublisher = {
    check,
    publish: async (input) => (hit('publish'), { branch: input.branch, commit: 'abc123', pushStatus: 'pushed' }),
  };
  const pullRequests: PullRequests = { check, open: async () => (hit('openPr'), { number: 7, url: 'http://127.0.0.1/pr/7' }) };
  const checkProposal: CheckProposal = async ({ proposal }) => (hit('checkProposal'), { status: 'passed', contentHash: proposal.contentHash, at: '2025-03-01T10:00:00.000Z' });
  return { calls, logs, chat, repo, publisher, pullRequests, checkProposal, searchDocs: async () => (hit('searchDocs'), []), searchCode: async () => (hit('searchCode'), []) };
}

export const TEST_POLICY = parsePolicy(
  `version: 1
actions:
  - { name: diagnostics.pod-logs, summary: pod logs, effect: READ_ONLY, permission: read, reversible: true, webhook: /hooks/pod-logs, target: service,
      args: { service: { type: slug }, namespace: { type: slug }, lines: { type: int, min: 10, max: 2000 } } }
  - { name: deploy.scale, summary: scale, effect: MUTATING, permission: approve, reversible: true, webhook: /hooks/scale, target: service,
      args: { service: { type: slug }, namespace: { type: slug }, replicas: { type: int, min: 1, max: 10 } } }
  - { name: db.failover, summary: failover, effect: DESTRUCTIVE, permission: elevated, reversible: false, webhook: /hooks/failover, target: cluster,
      args: { cluster: { type: slug }, region: { type: slug } } }
`,
  'test-policy',
);

/** A counting in-process automation client (the loopback receiver is used where HTTP matters). */
export function buildCountingAutomation() {
  const runs: { action: string; args: Record<string, unknown> }[] = [];
  let failNext: Error[] = [];
  const client: AutomationClient = {
    async run(request) {
      const failure = failNext.shift();
      if (failure) throw failure;
      runs.push({ action: request.action, args: request.args });
      return { ok: true };
    },
  };
  return { client, runs, failWith: (...errors: Error[]) => void (failNext = errors) };
}

export interface Harness {
  gateway: ToolGateway;
  approvals: ApprovalStore;
  audit: AuditLog;
  breakers: Breakers;
  clock: { now: number };
}

export function buildHarness(
  redis: Redis,
  prefix: string,
  options: { deps?: ToolRegistryDeps; actions?: ActionPolicy[]; approvers?: string[]; elevated?: string[]; readTimeoutMs?: number; writeTimeoutMs?: number; audit?: AuditLog; authority?: Authority; lockLeaseMs?: number } = {},
): Harness {
  const clock = { now: Date.parse('2025-03-01T10:00:00Z') };
  const now = () => clock.now;
  const breakers = createBreakers({ failureThreshold: 2, cooldownMs: 30_000, advisory: [LLM_UPSTREAM], now });
  const audit = options.audit ?? createAuditLog(redis, prefix);
  const approvals = createApprovalStore(redis, prefix, { ttlMs: 3_600_000, now });
  const gateway = createToolGateway({
    registry: createToolRegistry({ ...options.deps, actions: options.actions ?? options.deps?.actions ?? TEST_POLICY }),
    authority: options.authority ?? createConfiguredAuthority({ approvers: options.approvers ?? [APPROVER, SECOND_APPROVER], elevatedApprovers: options.elevated ?? [ELEVATED] }),
    audit,
    approvals,
    locks: createTargetLocks(redis, prefix, { leaseMs: options.lockLeaseMs ?? 60_000 }),
    challenges: createStepUpChallenges(redis, prefix, { secret: STEP_UP_SECRET, ttlMs: 120_000, now }),
    breakers,
    cache: createReadCache({ ttlMs: 120_000, now }),
    readTimeoutMs: options.readTimeoutMs,
    writeTimeoutMs: options.writeTimeoutMs,
    now,
  });
  return { gateway, approvals, audit, breakers, clock };
}

export const rateLimited = () => Object.assign(new Error('Too Many Requests'), { status: 429 });

/** Valid example arguments for every built-in tool and the test policy's actions. */
export function exampleArgs(tool: string): Record<string, unknown> {
  const proposal = buildProposal();
  const examples: Record<string, Record<string, unknown>> = {
    'logs.poll': { checkpoint: 'c0' },
    'logs.poll-stream': { checkpoint: 'c0' },
    'logs.find-line': { service: 'orders-api', pattern: 'deployed version', since: '2025-03-01T10:00:00.000Z' },
    'logs.window': { event: buildEvent(), beforeMs: 300_000, afterMs: 300_000, limit: 200 },
    'docs.search': { query: 'null pointer in orders', service: 'orders-api', limit: 5 },
    'code.search': { query: 'OrderRepository', limit: 5 },
    'code.read-file': { path: 'src/orders/order-repository.ts' },
    'code.list-files': {},
    'git.sync': {},
    'git.log': { paths: ['src/orders/order-repository.ts'], sinceDays: 14, limit: 20 },
    'git.blame': { path: 'src/orders/order-repository.ts', line: 12 },
    'git.commit-file': { sha: 'a1b2c3d4e5f6', path: 'src/orders/order-repository.ts' },
    'slack.post-card': { key: 'card:inc-1', message: { text: 'hi', blocks: [] } },
    'slack.update-card': { ref: { channel: 'C1', ts: '1.1' }, message: { text: 'hi', blocks: [] } },
    'slack.reply': { ref: { channel: 'C1', ts: '1.1' }, key: 'reply:inc-1', message: { text: 'hi', blocks: [] } },
    'slack.ephemeral': { channel: 'C1', userId: 'U1', text: 'only you' },
    'git.publish-fix': { incidentId: 'inc-1', branch: 'fix/inc-1-20250301100000', proposal, message: 'Fix orders' },
    'llm.complete': { step: 'rca', schemaName: 'rca_result', system: 'You analyse incidents.', user: 'The fenced evidence.', maxTokens: 1_200 },
    'code.check-proposal': { incidentId: 'inc-1', proposal },
    'github.open-pr': { branch: 'fix/inc-1-20250301100000', title: 'Fix orders', body: 'body' },
    'github.checks': { branch: 'fix/inc-1-20250301100000' },
    'github.merge-state': { branch: 'fix/inc-1-20250301100000', pullNumber: 7 },
    'github.deployment': { commit: 'a1b2c3d4e5f6', since: '2025-03-01T10:00:00.000Z', kind: 'github-deployment', environment: 'production' },
    'diagnostics.pod-logs': { service: 'orders-api', namespace: 'prod', lines: 100 },
    'deploy.scale': { service: 'orders-api', namespace: 'prod', replicas: 4 },
    'db.failover': { cluster: 'orders-db', region: 'eu-west-1' },
    'incident.merge': { incidentId: 'inc-1', intoIncidentId: 'inc-2' },
    'incident.split': { incidentId: 'inc-1', field: 'tenant' },
    'incident.open-from-overflow': { overflowIncidentId: 'inc-overflow-1', fingerprint: 'a1b2c3d4e5f60718:0f1e2d3c4b5a6978' },
  };
  const args = examples[tool];
  if (!args) throw new Error(`no example for ${tool}`);
  return structuredClone(args);
}
