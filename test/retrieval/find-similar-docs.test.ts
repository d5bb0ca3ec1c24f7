import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLocalEmbedder } from '../../src/adapters/embedding/local-embedder.js';
import { createMemoryVectorStore } from '../../src/adapters/vector/memory-vector-store.js';
import { createQdrantVectorStore } from '../../src/adapters/vector/qdrant-vector-store.js';
import { findSimilarDocs, similarDocsQuery } from '../../src/retrieval/find-similar-docs.js';
import type { RetrievalDeps } from '../../src/retrieval/indexed-doc.js';
import { ingestDocs, readDocs } from '../../src/retrieval/ingest-docs.js';
import { startLoopbackQdrant, type LoopbackQdrant } from '../loopback/qdrant-server.js';
import { buildEvent } from '../support/builders.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'docs');
const SAMPLE_DOCS = join(import.meta.dirname, '..', '..', 'data', 'docs');

const timeoutEvent = buildEvent({
  service: 'payments',
  errorCode: 'PAY-504',
  message: 'GatewayTimeoutError: card authorization timed out after 31000 ms',
  raw: 'GatewayTimeoutError: card authorization timed out after 31000 ms\n    at authorize (/srv/payments/src/gateway/client.ts:88:11)\n    at processTicksAndRejections (node:internal/process/task_queues:95:5)',
});

describe('findSimilarDocs', () => {
  let deps: RetrievalDeps;
  beforeAll(async () => {
    deps = { embedder: createLocalEmbedder(), store: createMemoryVectorStore() };
    await ingestDocs(deps, { dir: FIXTURES });
  });

  it('builds its query from the error code, exception type, message, template and in-app frames', () => {
    const query = similarDocsQuery(timeoutEvent, 'GatewayTimeoutError: card authorization timed out after <*> ms');
    expect(query.split('\n')).toEqual([
      'PAY-504',
      'GatewayTimeoutError',
      'GatewayTimeoutError: card authorization timed out after 31000 ms',
      'GatewayTimeoutError: card authorization timed out after <*> ms',
      'client.ts authorize',
    ]);
  });

  it('finds the documented family first, with similarities in [0, 1], best first', async () => {
    const docs = await findSimilarDocs(deps, { event: timeoutEvent, template: 'GatewayTimeoutError: card authorization timed out after <*> ms' });
    expect(docs).toHaveLength(5);
    expect(docs[0]).toMatchObject({ title: 'Payments: card gateway timeout — Symptom', source: 'payments/gateway-timeout.md' });
    expect(docs[0]!.excerpt).toContain('card authorization timed out');
    for (const doc of docs) {
      expect(doc.similarity).toBeGreaterThanOrEqual(0);
      expect(doc.similarity).toBeLessThanOrEqual(1);
    }
    expect(docs.map((d) => d.similarity)).toEqual([...docs.map((d) => d.similarity)].sort((a, b) => b - a));
  });

  it('returns no more than the collection holds, and nothing from an empty one', async () => {
    const docs = await findSimilarDocs(deps, { event: timeoutEvent, template: '', limit: 50 });
    expect(docs).toHaveLength(9);
    const empty = { embedder: deps.embedder, store: createMemoryVectorStore() };
    expect(await findSimilarDocs(empty, { event: timeoutEvent, template: '' })).toEqual([]);
  });

  it('filters by service when asked', async () => {
    const docs = await findSimilarDocs(deps, { event: timeoutEvent, template: '', service: 'inventory' });
    expect(docs.map((d) => d.source)).toEqual(['inventory-pool.md', 'inventory-pool.md']);
  });

  it('works the same over Qdrant', async () => {
    const qdrant: LoopbackQdrant = await startLoopbackQdrant();
    try {
      const remote = { embedder: deps.embedder, store: createQdrantVectorStore({ url: qdrant.url, collection: `medic_${randomUUID().slice(0, 8)}` }) };
      await ingestDocs(remote, { dir: FIXTURES });
      const local = await findSimilarDocs(deps, { event: timeoutEvent, template: '' });
      const viaQdrant = await findSimilarDocs(remote, { event: timeoutEvent, template: '' });
      expect(viaQdrant.map((d) => d.id)).toEqual(local.map((d) => d.id));
      viaQdrant.forEach((d, i) => expect(d.similarity).toBeCloseTo(local[i]!.similarity, 5));
    } finally {
      await qdrant.close();
    }
  });
});

// The sample documents under data/docs are written by hand and grow; the fixtures stand in until they exist.
describe('findSimilarDocs on the sample documents', () => {
  let deps: RetrievalDeps;
  let dir: string;
  beforeAll(async () => {
    dir = (await readdir(SAMPLE_DOCS).catch(() => [])).some((f) => f.endsWith('.md')) ? SAMPLE_DOCS : FIXTURES;
    deps = { embedder: createLocalEmbedder(), store: createMemoryVectorStore() };
    await ingestDocs(deps, { dir });
  });

  it('finds each family from its own symptom text', async () => {
    const { docs } = await readDocs(dir);
    const symptoms = docs.filter((d) => d.title.endsWith('— Symptom'));
    expect(symptoms.length).toBeGreaterThan(0);
    for (const symptom of symptoms) {
      const event = buildEvent({ service: symptom.service ?? 'shop', message: symptom.body, raw: symptom.body, ...(symptom.errorCode ? { errorCode: symptom.errorCode } : {}) });
      const [top] = await findSimilarDocs(deps, { event, template: symptom.body, limit: 3 });
      expect(top?.source).toBe(symptom.path);
    }
  });
});
