import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startLoopbackOpenAI, type LoopbackOpenAI } from '../loopback/openai-server.js';

describe('loopback OpenAI server, driven by the real openai client', () => {
  let server: LoopbackOpenAI;
  let client: OpenAI;
  beforeEach(async () => {
    server = await startLoopbackOpenAI({ dimension: 16 });
    client = new OpenAI({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0, timeout: 2_000 });
  });
  afterEach(() => server.close());

  it('answers a scripted chat completion with usage and records the request', async () => {
    server.script({ json: { ok: true } });
    const completion = await client.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]?.message.content).toBe('{"ok":true}');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(server.chatRequests()[0]?.body.messages[0].content).toBe('hi');
    expect(server.chatRequests()[0]?.headers.authorization).toBe('Bearer test-key');
  });

  it('returns embeddings as float arrays or as base64 float32, as the real API does', async () => {
    const asFloat = await client.embeddings.create({ model: 'e', input: ['disk full'], encoding_format: 'float' });
    const asDefault = await client.embeddings.create({ model: 'e', input: ['disk full'] });
    expect(server.requests.at(-1)?.body.encoding_format).toBe('base64');
    expect(asFloat.data[0]?.embedding).toHaveLength(16);
    const decoded = asDefault.data[0]?.embedding ?? [];
    expect(decoded).toHaveLength(16);
    decoded.forEach((v, i) => expect(v).toBeCloseTo(asFloat.data[0]?.embedding[i] ?? NaN, 5));
  });

  it('speaks the error envelope, retry headers and finish reasons', async () => {
    server.script({ fault: 'rate-limit', retryAfterMs: 0 }, { fault: 'refusal', refusal: 'no' }, { fault: 'length' });
    const error = await client.chat.completions.create({ model: 'm', messages: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).code).toBe('rate_limit_exceeded');
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after-ms')).toBe('0');
    const refusal = await client.chat.completions.create({ model: 'm', messages: [] });
    expect(refusal.choices[0]?.message.refusal).toBe('no');
    const truncated = await client.chat.completions.create({ model: 'm', messages: [] });
    expect(truncated.choices[0]?.finish_reason).toBe('length');
  });

  it('hangs until the client times out, and close() still returns', async () => {
    server.script({ fault: 'hang' });
    const quick = new OpenAI({ apiKey: 'k', baseURL: server.url, maxRetries: 0, timeout: 200 });
    await expect(quick.chat.completions.create({ model: 'm', messages: [] })).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });

  it('answers 400 when nothing is scripted, so a missing script never looks like success', async () => {
    await expect(client.chat.completions.create({ model: 'm', messages: [] })).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  });
});
