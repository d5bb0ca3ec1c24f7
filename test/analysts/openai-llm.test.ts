import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOpenAiLlm, type OpenAiLlmOptions } from '../../src/adapters/openai/openai-llm.js';
import { ErrorCode, MedicError } from '../../src/domain/errors.js';
import type { LlmRequest } from '../../src/ports/llm.js';
import { startLoopbackOpenAI, type LoopbackOpenAI } from '../loopback/openai-server.js';

const Answer = z.object({ cause: z.string(), confidence: z.number() });
const request: LlmRequest<z.infer<typeof Answer>> = { step: 'rca', system: 'You analyse.', user: 'data', schema: Answer, schemaName: 'answer', maxTokens: 321 };
const good = { json: { cause: 'disk full', confidence: 0.7 }, usage: { prompt_tokens: 100, completion_tokens: 20 } };

describe('OpenAI LLM adapter against the loopback server', () => {
  let server: LoopbackOpenAI;
  const llm = (overrides: Partial<OpenAiLlmOptions> = {}) =>
    createOpenAiLlm({ apiKey: 'sk-test-not-a-real-key-000000', baseURL: server.url, models: { default: 'base-model', rca: 'rca-model' }, timeoutMs: 2_000, maxRetries: 2, responseFormat: 'json_schema', ...overrides });
  const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e as MedicError);

  beforeEach(async () => {
    server = await startLoopbackOpenAI();
  });
  afterEach(() => server.close());

  it('sends strict json_schema output, temperature 0, explicit max_tokens and the step model; returns usage', async () => {
    server.script(good);
    const response = await llm().complete(request);
    expect(response.value).toEqual({ cause: 'disk full', confidence: 0.7 });
    expect(response.usage).toEqual({ promptTokens: 100, completionTokens: 20 });
    const body = server.chatRequests()[0]?.body;
    expect(body).toMatchObject({ model: 'rca-model', temperature: 0, max_tokens: 321 });
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'answer', strict: true } });
    expect(body.response_format.json_schema.schema.required).toEqual(['cause', 'confidence']);
  });

  it('retries a 429 honouring retry-after-ms, then succeeds', async () => {
    server.script({ fault: 'rate-limit', retryAfterMs: 5 }, good);
    await expect(llm().complete(request)).resolves.toMatchObject({ value: { cause: 'disk full' } });
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('retries a 429 honouring retry-after in seconds, then succeeds', async () => {
    server.script({ fault: 'rate-limit', retryAfterSeconds: 0.01 }, good);
    await expect(llm().complete(request)).resolves.toMatchObject({ value: { confidence: 0.7 } });
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('retries a 500, then succeeds', async () => {
    server.script({ fault: 'server-error' }, good);
    await expect(llm().complete(request)).resolves.toMatchObject({ value: { cause: 'disk full' } });
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('gives up on a persistent 429 with a transient, coded error after its retries', async () => {
    server.script({ fault: 'rate-limit', retryAfterMs: 0 }, { fault: 'rate-limit', retryAfterMs: 0 });
    const error = await failure(llm({ maxRetries: 1 }).complete(request));
    expect(error).toMatchObject({ code: ErrorCode.UpstreamUnavailable, transient: true });
    expect(error?.message).toMatch(/429/);
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('times out a hung endpoint with a coded error that names the setting', async () => {
    server.script({ fault: 'hang' });
    const error = await failure(llm({ timeoutMs: 300, maxRetries: 0 }).complete(request));
    expect(error).toMatchObject({ code: ErrorCode.UpstreamUnavailable, transient: true });
    expect(error?.message).toMatch(/MEDIC_LLM_TIMEOUT_MS/);
  });

  it('turns a malformed HTTP body into a coded error', async () => {
    server.script({ fault: 'malformed-body' });
    const error = await failure(llm({ maxRetries: 0 }).complete(request));
    expect(error).toBeInstanceOf(MedicError);
    expect(error?.message).not.toMatch(/sk-test/);
  });

  it('repairs a schema-invalid answer once, showing the model what was wrong, and sums usage', async () => {
    server.script({ json: { cause: 'disk full' }, usage: { prompt_tokens: 50, completion_tokens: 5 } }, good);
    const response = await llm().complete(request);
    expect(response.value.confidence).toBe(0.7);
    expect(response.usage).toEqual({ promptTokens: 150, completionTokens: 25 });
    const repair = server.chatRequests()[1]?.body.messages;
    expect(repair.at(-2)).toMatchObject({ role: 'assistant', content: '{"cause":"disk full"}' });
    expect(repair.at(-1).content).toMatch(/confidence/);
  });

  it('repairs non-JSON content and accepts JSON wrapped in a markdown fence', async () => {
    server.script({ content: 'The cause is a full disk.' }, { content: '```json\n{"cause":"disk full","confidence":0.4}\n```' });
    await expect(llm().complete(request)).resolves.toMatchObject({ value: { confidence: 0.4 } });
  });

  it('fails with ModelOutputInvalid when the repair is invalid too', async () => {
    server.script({ json: { nope: 1 } }, { content: 'still not it' });
    expect(await failure(llm().complete(request))).toMatchObject({ code: ErrorCode.ModelOutputInvalid, transient: false });
    expect(server.chatRequests()).toHaveLength(2);
  });

  it.each([
    ['refusal', { fault: 'refusal' as const }, /refused/],
    ['truncation', { fault: 'length' as const }, /MEDIC_LLM_MAX_TOKENS_RCA/],
    ['content filter', { fault: 'content-filter' as const }, /content filter/],
  ])('fails a %s clearly, without a repair attempt', async (_name, fault, message) => {
    server.script(fault);
    const error = await failure(llm().complete(request));
    expect(error).toMatchObject({ code: ErrorCode.ModelOutputInvalid });
    expect(error?.message).toMatch(message);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('falls back to JSON mode, with the schema in the prompt, when a server rejects json_schema', async () => {
    server.script({ fault: 'http-error', status: 400, message: "response_format type 'json_schema' is not supported" }, good, good);
    const adapter = llm();
    await adapter.complete(request);
    await adapter.complete(request);
    const [, second, third] = server.chatRequests();
    expect(second?.body.response_format).toEqual({ type: 'json_object' });
    expect(second?.body.messages[0].content).toMatch(/JSON Schema/);
    expect(third?.body.response_format).toEqual({ type: 'json_object' });
  });

  it('reports a wrong key as UpstreamRejected pointing at OPENAI_API_KEY, without the key', async () => {
    server.script({ fault: 'http-error', status: 401, message: 'Incorrect API key provided: sk-test-not-a-real-key-000000', code: 'invalid_api_key' });
    const error = await failure(llm().complete(request));
    expect(error).toMatchObject({ code: ErrorCode.UpstreamRejected });
    expect(error?.message).toMatch(/OPENAI_API_KEY/);
    expect(error?.message).not.toMatch(/sk-test/);
  });

  it('does not sleep through a retry-after over the cap: fails at once, saying so', async () => {
    server.script({ fault: 'rate-limit', retryAfterSeconds: 3_600 }, good);
    const error = await failure(llm({ maxRetryWaitMs: 1_000 }).complete(request));
    expect(error).toMatchObject({ code: ErrorCode.UpstreamUnavailable, transient: true });
    expect(error?.message).toMatch(/asked to wait 3600 s, over MEDIC_LLM_MAX_RETRY_WAIT_MS/);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('checks the endpoint through GET /models', async () => {
    await expect(llm().check()).resolves.toMatchObject({ ok: true, name: 'llm' });
  });
});
