import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { createOpenAIEmbedder } from '../../src/adapters/embedding/openai-embedder.js';
import { ErrorCode, MedicError } from '../../src/domain/errors.js';
import { startLoopbackOpenAI, type LoopbackOpenAI } from '../loopback/openai-server.js';

async function failure(work: Promise<unknown>): Promise<MedicError> {
  const error = await work.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(MedicError);
  return error as MedicError;
}

describe('OpenAI embedder', () => {
  let server: LoopbackOpenAI;
  beforeEach(async () => {
    server = await startLoopbackOpenAI({ dimension: 64 });
  });
  afterEach(async () => {
    await server.close();
  });

  const options = () => ({ apiKey: 'sk-loopback', baseURL: server.url, model: 'text-embedding-3-small', dimensions: 64, maxRetries: 2 });
  const embeddingRequests = () => server.requests.filter((r) => r.path === '/v1/embeddings');

  it('always asks for float encoding, with the model, the dimensions and the bearer key', async () => {
    const embedder = await createOpenAIEmbedder(options());
    await embedder.embed(['checkout failed']);
    const [request] = embeddingRequests();
    expect(request!.body).toMatchObject({ model: 'text-embedding-3-small', encoding_format: 'float', dimensions: 64, input: ['checkout failed'] });
    expect(request!.headers.authorization).toBe('Bearer sk-loopback');
  });

  it('gets the same vectors the server computed (the base64 trap would give 16 garbage values)', async () => {
    const embedder = await createOpenAIEmbedder(options());
    const [ours] = await embedder.embed(['order service timeout']);
    // The same server answering the SDK's default (base64) request, decoded by the SDK itself.
    const sdk = new OpenAI({ apiKey: 'sk-loopback', baseURL: server.url, maxRetries: 0 });
    const viaBase64 = await sdk.embeddings.create({ model: 'text-embedding-3-small', input: ['order service timeout'] });
    expect(ours).toHaveLength(64);
    const decoded = viaBase64.data[0]!.embedding;
    ours!.forEach((v, i) => expect(v).toBeCloseTo(decoded[i]!, 6));
  });

  it('splits large inputs into batches and keeps the order', async () => {
    const embedder = await createOpenAIEmbedder({ ...options(), batchSize: 8 });
    const texts = Array.from({ length: 20 }, (_, i) => `error number ${i} in module m${i}`);
    const vectors = await embedder.embed(texts);
    expect(embeddingRequests().map((r) => r.body.input.length)).toEqual([8, 8, 4]);
    const [again] = await embedder.embed([texts[13]!]);
    expect(vectors[13]).toEqual(again);
  });

  it('retries 5xx and 429 through the SDK and then succeeds', async () => {
    const embedder = await createOpenAIEmbedder(options());
    server.scriptEmbeddings({ fault: 'server-error' }, { fault: 'rate-limit', retryAfterMs: 0 });
    const vectors = await embedder.embed(['retry me']);
    expect(vectors).toHaveLength(1);
    expect(embeddingRequests()).toHaveLength(3);
  });

  it('says to check OPENAI_API_KEY on 401', async () => {
    const embedder = await createOpenAIEmbedder(options());
    server.scriptEmbeddings({ fault: 'http-error', status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key' });
    const error = await failure(embedder.embed(['x']));
    expect(error.code).toBe(ErrorCode.Unauthorized);
    expect(error.message).toContain('OPENAI_API_KEY');
    expect(error.message).not.toContain('sk-loopback');
  });

  it('says to check the model when the server rejects it', async () => {
    const embedder = await createOpenAIEmbedder(options());
    server.scriptEmbeddings({ fault: 'http-error', status: 404, message: 'The model `nope` does not exist', code: 'model_not_found' });
    const error = await failure(embedder.embed(['x']));
    expect(error.code).toBe(ErrorCode.UpstreamRejected);
    expect(error.message).toContain('MEDIC_EMBEDDING_MODEL');
  });

  it('is transient when the endpoint stays down after retries', async () => {
    const embedder = await createOpenAIEmbedder({ ...options(), maxRetries: 0 });
    server.scriptEmbeddings({ fault: 'server-error', status: 503 });
    const error = await failure(embedder.embed(['x']));
    expect(error.code).toBe(ErrorCode.UpstreamUnavailable);
    expect(error.transient).toBe(true);
  });

  it('is transient and names OPENAI_BASE_URL when nothing listens', async () => {
    const url = server.url;
    await server.close();
    const embedder = await createOpenAIEmbedder({ ...options(), baseURL: url, maxRetries: 0 });
    const error = await failure(embedder.embed(['x']));
    expect(error.code).toBe(ErrorCode.UpstreamUnavailable);
    expect(error.message).toContain('OPENAI_BASE_URL');
    server = await startLoopbackOpenAI();
  });

  it('refuses vectors of a size other than the one configured', async () => {
    const embedder = await createOpenAIEmbedder({ ...options(), dimensions: 32 });
    const error = await failure(embedder.embed(['x']));
    expect(error.code).toBe(ErrorCode.UpstreamRejected);
    expect(error.message).toContain('MEDIC_EMBEDDING_DIMENSIONS');
  });

  it('asks an unknown model its dimension once, then names itself with it', async () => {
    const embedder = await createOpenAIEmbedder({ apiKey: 'ollama', baseURL: server.url, model: 'nomic-embed-text' });
    expect(embedder.dimension).toBe(64);
    expect(embedder.id).toBe('openai:nomic-embed-text:64');
    expect(embeddingRequests()).toHaveLength(1);
    expect(embeddingRequests()[0]!.body).not.toHaveProperty('dimensions');
  });

  it('knows the dimension of OpenAI models without asking', async () => {
    const embedder = await createOpenAIEmbedder({ apiKey: 'sk-x', baseURL: server.url, model: 'text-embedding-3-large' });
    expect(embedder.dimension).toBe(3072);
    expect(embeddingRequests()).toHaveLength(0);
  });

  it('sends a placeholder instead of an empty string, which OpenAI rejects', async () => {
    const embedder = await createOpenAIEmbedder(options());
    await embedder.embed(['', '   ']);
    expect(embeddingRequests()[0]!.body.input).toEqual(['(empty)', '(empty)']);
  });
});
