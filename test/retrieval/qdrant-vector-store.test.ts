import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQdrantVectorStore } from '../../src/adapters/vector/qdrant-vector-store.js';
import { pointIdFor } from '../../src/adapters/vector/point-id.js';
import { ErrorCode, MedicError } from '../../src/domain/errors.js';
import { startLoopbackQdrant, type LoopbackQdrant } from '../loopback/qdrant-server.js';

async function failure(work: Promise<unknown>): Promise<MedicError> {
  const error = await work.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(MedicError);
  return error as MedicError;
}

describe('Qdrant vector store (wire details)', () => {
  let qdrant: LoopbackQdrant;
  beforeEach(async () => {
    qdrant = await startLoopbackQdrant({ apiKey: 'qdrant-secret' });
  });
  afterEach(async () => {
    await qdrant.close();
  });
  const open = (extra: { apiKey?: string; collection?: string } = {}) =>
    createQdrantVectorStore({ url: qdrant.url, apiKey: 'qdrant-secret', collection: 'medic_docs', timeoutMs: 5_000, ...extra });
  const sent = (method: string, suffix: string) => qdrant.requests.filter((r) => r.method === method && r.path.endsWith(suffix));

  it('creates a cosine collection of the embedder dimension with keyword indexes for the filters', async () => {
    await open().ensure('local-hash-v1-d256', 256);
    expect(sent('PUT', '/collections/medic_docs')[0]!.body).toEqual({ vectors: { size: 256, distance: 'Cosine' } });
    expect(sent('PUT', '/collections/medic_docs/index').map((r) => r.body)).toEqual([
      { field_name: 'service', field_schema: 'keyword' },
      { field_name: 'source', field_schema: 'keyword' },
      { field_name: 'medic_embedder', field_schema: 'keyword' },
    ]);
  });

  it('stores v5 UUID point ids with the document id and embedder in the payload, and waits for upserts', async () => {
    const store = open();
    await store.ensure('e1', 2);
    await store.upsert([{ id: 'doc-0123456789abcdef', vector: [1, 0], payload: { source: 'docs' } }]);
    const [upsert] = sent('PUT', '/points');
    expect(upsert!.query.get('wait')).toBe('true');
    const [p] = upsert!.body.points;
    expect(p.id).toBe(pointIdFor('doc-0123456789abcdef'));
    expect(p.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(p.payload).toEqual({ source: 'docs', medic_id: 'doc-0123456789abcdef', medic_embedder: 'e1' });
    const [hit] = await store.query({ vector: [1, 0], limit: 1 });
    expect(hit).toEqual({ id: 'doc-0123456789abcdef', score: expect.closeTo(1, 6) as number, payload: { source: 'docs' } });
    expect(sent('POST', '/points/query')[0]!.body).toMatchObject({ limit: 1, with_payload: true });
  });

  it('rebuilds a collection that holds another embedder’s points of the same size', async () => {
    const store = open();
    await store.ensure('e1', 2);
    await store.upsert([{ id: 'a', vector: [1, 0], payload: {} }]);
    const restarted = open();
    expect(await restarted.ensure('e2', 2)).toBe(true);
    expect(sent('DELETE', '/collections/medic_docs')).toHaveLength(1);
    expect(await restarted.count()).toBe(0);
  });

  it('checks the collection again after recheckMs, so another process’s rebuild is noticed', async () => {
    const worker = createQdrantVectorStore({ url: qdrant.url, apiKey: 'qdrant-secret', collection: 'medic_docs', recheckMs: 0 });
    await worker.ensure('e1', 2);
    await worker.upsert([{ id: 'a', vector: [1, 0], payload: {} }]);
    expect(await open().ensure('e2', 2)).toBe(true);
    const other = open();
    await other.ensure('e2', 2);
    await other.upsert([{ id: 'b', vector: [0, 1], payload: {} }]);
    expect(await worker.ensure('e1', 2)).toBe(true);
    expect(await worker.count()).toBe(0);
  });

  it('says to check QDRANT_API_KEY on 401, without echoing it', async () => {
    const error = await failure(open({ apiKey: 'wrong-key' }).ensure('e1', 2));
    expect(error.code).toBe(ErrorCode.Unauthorized);
    expect(error.message).toContain('QDRANT_API_KEY');
    expect(error.message).not.toContain('wrong-key');
  });

  it('treats 5xx as transient and 4xx as a rejection with Qdrant’s own reason', async () => {
    const store = open();
    await store.ensure('e1', 2);
    qdrant.failNext(503, 'Service Unavailable: overloaded');
    const unavailable = await failure(store.query({ vector: [1, 0], limit: 1 }));
    expect(unavailable).toMatchObject({ code: ErrorCode.UpstreamUnavailable, transient: true });
    qdrant.failNext(400, 'Wrong input: bad request');
    const rejected = await failure(store.query({ vector: [1, 0], limit: 1 }));
    expect(rejected.code).toBe(ErrorCode.UpstreamRejected);
    expect(rejected.message).toContain('Wrong input: bad request');
  });

  it('is transient and names QDRANT_URL when nothing listens', async () => {
    const url = qdrant.url;
    await qdrant.close();
    const error = await failure(createQdrantVectorStore({ url, collection: 'c', timeoutMs: 2_000 }).count());
    expect(error).toMatchObject({ code: ErrorCode.UpstreamUnavailable, transient: true });
    expect(error.message).toContain('QDRANT_URL');
    qdrant = await startLoopbackQdrant();
  });

  it('reports the server version and the collection size in its check', async () => {
    const store = open();
    expect((await store.check()).detail).toContain('collection not created yet');
    await store.ensure('e1', 2);
    await store.upsert([{ id: 'a', vector: [1, 0], payload: {} }]);
    expect(await store.check()).toMatchObject({ ok: true, detail: 'Qdrant 1.18.0; 1 documents' });
  });
});
