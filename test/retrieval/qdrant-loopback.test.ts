import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackQdrant, type LoopbackQdrant } from '../loopback/qdrant-server.js';

/** Keeps the fake faithful to REFERENCE.md §4, driven through the real client and raw HTTP. */
describe('loopback Qdrant server', () => {
  let qdrant: LoopbackQdrant;
  let client: QdrantClient;
  beforeAll(async () => {
    qdrant = await startLoopbackQdrant();
    client = new QdrantClient({ url: qdrant.url, checkCompatibility: false });
    await client.createCollection('c', { vectors: { size: 2, distance: 'Cosine' } });
    await client.upsert('c', {
      points: Array.from({ length: 12 }, (_, i) => ({ id: i + 1, vector: [1, i], payload: { n: i, service: i % 2 ? 'odd' : 'even' } })),
    });
  });
  afterAll(async () => {
    await qdrant.close();
  });

  it('answers GET / with bare version info and wraps every other result in the envelope', async () => {
    expect(await client.versionInfo()).toEqual({ title: 'qdrant - vector search engine', version: '1.18.0', commit: 'loopback' });
    expect(await (await fetch(`${qdrant.url}/readyz`)).text()).toBe('all shards are ready');
    const raw = (await (await fetch(`${qdrant.url}/collections/c/exists`)).json()) as Record<string, unknown>;
    expect(raw).toMatchObject({ result: { exists: true }, status: 'ok' });
    expect(typeof raw.time).toBe('number');
  });

  it('rejects ids that are neither unsigned integers nor UUIDs with a 400 error body', async () => {
    const response = await fetch(`${qdrant.url}/collections/c/points?wait=true`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ points: [{ id: 'doc-1', vector: [1, 0], payload: {} }] }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { status: { error: string } }).status.error).toContain('is not a valid point ID');
  });

  it('accepts UUIDs in simple or urn form and returns them canonical', async () => {
    await client.upsert('c', { batch: { ids: ['urn:uuid:6F1C3A52-A9E4-4D0B-8D6C-2B7E4F9A1C37'], vectors: [[0, 1]], payloads: [{ n: 99 }] } });
    const { points } = await client.scroll('c', { filter: { must: [{ key: 'n', match: { value: 99 } }] } });
    expect(points[0]!.id).toBe('6f1c3a52-a9e4-4d0b-8d6c-2b7e4f9a1c37');
    await client.delete('c', { points: ['6f1c3a52a9e44d0b8d6c2b7e4f9a1c37'] });
    expect((await client.count('c')).count).toBe(12);
  });

  it('defaults a query to 10 hits without payloads, and filters with must/match', async () => {
    const plain = await client.query('c', { query: [1, 0] });
    expect(plain.points).toHaveLength(10);
    expect(plain.points[0]).not.toHaveProperty('payload');
    const filtered = await client.query('c', { query: [1, 0], limit: 3, with_payload: true, filter: { must: [{ key: 'service', match: { value: 'odd' } }] } });
    expect(filtered.points.map((p) => p.payload?.service)).toEqual(['odd', 'odd', 'odd']);
  });

  it('pages a scroll with next_page_offset and answers 404 for a missing collection', async () => {
    const first = await client.scroll('c', { limit: 5 });
    expect(first.points).toHaveLength(5);
    const second = await client.scroll('c', { limit: 10, offset: first.next_page_offset as number });
    expect(second.points).toHaveLength(7);
    expect(second.next_page_offset).toBeNull();
    const missing = await fetch(`${qdrant.url}/collections/none`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { status: { error: string } }).status.error).toContain("doesn't exist");
  });

  it('reports wait in the update status and rejects a wrong vector size', async () => {
    const response = await fetch(`${qdrant.url}/collections/c/points?wait=false`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ points: [{ id: 500, vector: [1, 0, 0] }] }),
    });
    expect(response.status).toBe(400);
    const ok = await client.upsert('c', { wait: false, points: [{ id: 500, vector: [1, 1] }] });
    expect(ok.status).toBe('acknowledged');
    await client.delete('c', { wait: true, points: [500] });
  });
});
