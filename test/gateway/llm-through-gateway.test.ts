/**
 * Model calls go through the gateway: the real openai client against the loopback server, the
 * gateway's deadline aborting a hung request, the model's breaker refusing model calls (and only
 * them) after an outage, and an audit record for every call that carries the arguments' hash,
 * never the prompt.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiLlm } from '../../src/adapters/openai/openai-llm.js';
import { MODEL_ANSWERS, RcaAnswer } from '../../src/analysts/answers.js';
import { recordFixApproval } from '../../src/gateway/effect-gate/fix-approval.js';
import { createGatedLlm } from '../../src/gateway/gated-llm.js';
import { createGatedPorts } from '../../src/gateway/gated-ports.js';
import { startLoopbackOpenAI, type LoopbackOpenAI } from '../loopback/openai-server.js';
import { createTestRedis } from '../support/redis.js';
import { APPROVER, buildFakePorts, buildHarness, buildProposal } from './support.js';

const incidentId = 'inc-llm';
const pipeline = { caller: { kind: 'pipeline' as const }, incidentId, traceId: 'trace-llm' };
const PROMPT_SECRET_WORDS = 'the fenced evidence of inc-llm';
const rca = { rootCause: 'The pool is exhausted', contributingFactors: [], evidenceIds: ['e1'], impactedComponent: 'orders', severity: 'error', confidence: 0.7, summary: 'pool exhausted', sequenceOfEvents: [] };
const request = { step: 'rca', system: 'You analyse incidents.', user: PROMPT_SECRET_WORDS, schema: RcaAnswer, schemaName: 'rca_result', maxTokens: 400 };

describe('the model behind the gateway', () => {
  let env: Awaited<ReturnType<typeof createTestRedis>>;
  let server: LoopbackOpenAI;
  beforeEach(async () => {
    env = await createTestRedis();
    server = await startLoopbackOpenAI();
  });
  afterEach(async () => {
    await server.close();
    await env.cleanup();
  });

  function harness(deadlineMs: number) {
    const llm = createOpenAiLlm({ apiKey: 'sk-test-not-a-real-key-000000', baseURL: server.url, models: { default: 'm' }, timeoutMs: 10_000, maxRetries: 0, responseFormat: 'json_schema' });
    const ports = buildFakePorts();
    const h = buildHarness(env.redis, env.prefix, { deps: { ...ports, model: { llm, answers: MODEL_ANSWERS, deadlineMs } } });
    return { h, ports, gatedLlm: createGatedLlm(h.gateway, llm, pipeline) };
  }

  it('answers through the gateway and audits the call by its hash, without the prompt', async () => {
    const { h, gatedLlm } = harness(5_000);
    server.script({ json: rca, usage: { prompt_tokens: 50, completion_tokens: 10 } });
    const answer = await gatedLlm.complete(request);
    expect(answer.value.rootCause).toBe('The pool is exhausted');
    const [call] = await h.audit.list({ incidentId });
    expect(call).toMatchObject({ action: 'gateway.tool-call', outcome: 'allowed', details: { tool: 'llm.complete', effect: 'READ_ONLY', decision: 'executed' } });
    expect(String(call!.details?.argsHash)).toMatch(/^[0-9a-f]{16,}$/);
    expect(JSON.stringify(call)).not.toContain(PROMPT_SECRET_WORDS);
  });

  it('aborts a hung request at the deadline, and its breaker then refuses model calls only', async () => {
    const { h, ports, gatedLlm } = harness(300);
    server.script({ fault: 'hang' }, { fault: 'hang' });
    const started = Date.now();
    // The harness opens a breaker after two failures.
    for (let i = 0; i < 2; i++) await expect(gatedLlm.complete(request)).rejects.toMatchObject({ code: 'ERR_UPSTREAM_UNAVAILABLE' });
    // Two deadlines of 300 ms, not the client's own 10 s timeout.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.chatRequests()).toHaveLength(2);
    // The breaker is open now: the next call is refused without reaching the server.
    await expect(gatedLlm.complete(request)).rejects.toMatchObject({ code: 'ERR_UPSTREAM_UNAVAILABLE' });
    expect(server.chatRequests()).toHaveLength(2);
    // A model outage does not halt an approved fix, nor does it put a degraded notice on cards.
    const proposal = buildProposal();
    await recordFixApproval(h.approvals, { incidentId, proposal, approverId: APPROVER });
    const gated = createGatedPorts(h.gateway, ports, pipeline);
    expect(await gated.publisher!.publish({ incidentId, branch: 'fix/inc-llm-20250301100000', proposal, message: 'Fix orders' })).toMatchObject({ pushStatus: 'pushed' });
    expect(h.gateway.degradedNotice()).toBeUndefined();
    // Each aborted call is audited twice: unknown at the deadline, then failed when the abort settles it.
    await h.gateway.whenReconciled();
    const settled = (await h.audit.list({ incidentId })).filter((a) => a.details?.tool === 'llm.complete').map((a) => a.details?.decision);
    expect(settled.filter((d) => d !== 'late-failed')).toEqual(['unknown', 'unknown', 'denied']);
    expect(settled.filter((d) => d === 'late-failed')).toHaveLength(2);
  });

  it('refuses a schema the analysts never ask for', async () => {
    const { gatedLlm } = harness(5_000);
    await expect(gatedLlm.complete({ ...request, schemaName: 'anything_else' })).rejects.toMatchObject({ code: 'ERR_VALIDATION_FAILED' });
    expect(server.chatRequests()).toHaveLength(0);
  });
});
