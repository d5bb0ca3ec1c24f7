/**
 * The one conformance suite for the VectorStore port. Every adapter (the embedded index and Qdrant
 * over its loopback server) must pass it unchanged, which keeps the fake and the real thing honest.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, MedicError } from '../../src/domain/errors.js';
import type { VectorPoint, VectorStore } from '../../src/ports/retrieval.js';

export interface VectorStoreHarness {
  store: VectorStore;
  cleanup(): Promise<void>;
}

const EMBEDDER = 'contract-embedder-v1';

function point(id: string, vector: number[], payload: Record<string, unknown> = {}): VectorPoint {
  return { id, vector, payload: { title: id, ...payload } };
}

const corpus: VectorPoint[] = [
  point('doc-east', [1, 0, 0, 0], { service: 'checkout', source: 'docs' }),
  point('doc-north', [0, 1, 0, 0], { service: 'payments', source: 'docs' }),
  point('doc-up', [0, 0, 1, 0], { service: 'checkout', source: 'incidents' }),
  point('doc-northeast', [3, 3, 0, 0], { service: 'payments', source: 'docs' }),
];

export function describeVectorStoreContract(name: string, open: () => Promise<VectorStoreHarness>): void {
  describe(`VectorStore contract: ${name}`, () => {
    let harness: VectorStoreHarness;
    let store: VectorStore;

    beforeEach(async () => {
      harness = await open();
      store = harness.store;
    });
    afterEach(async () => {
      await harness.cleanup();
    });

    it('starts empty: ensure creates without rebuilding, count is 0, a query finds nothing', async () => {
      expect(await store.ensure(EMBEDDER, 4)).toBe(false);
      expect(await store.count()).toBe(0);
      expect(await store.query({ vector: [1, 0, 0, 0], limit: 5 })).toEqual([]);
      expect(await store.idsBySource('docs')).toEqual([]);
    });

    it('returns the nearest documents first, with cosine scores, original ids and payloads', async () => {
      await store.ensure(EMBEDDER, 4);
      await store.upsert(corpus);
      const hits = await store.query({ vector: [2, 0.1, 0, 0], limit: 2 });
      expect(hits.map((h) => h.id)).toEqual(['doc-east', 'doc-northeast']);
      expect(hits[0]!.score).toBeCloseTo(2 / Math.hypot(2, 0.1), 5);
      expect(hits[1]!.score).toBeCloseTo((2 + 0.1) / (Math.hypot(2, 0.1) * Math.SQRT2), 5);
      expect(hits[0]!.payload).toEqual({ title: 'doc-east', service: 'checkout', source: 'docs' });
    });

    it('never returns more hits than the limit or than it holds', async () => {
      await store.ensure(EMBEDDER, 4);
      await store.upsert(corpus);
      expect(await store.query({ vector: [1, 1, 1, 0], limit: 3 })).toHaveLength(3);
      expect(await store.query({ vector: [1, 1, 1, 0], limit: 50 })).toHaveLength(corpus.length);
      expect(await store.query({ vector: [1, 1, 1, 0], limit: 0 })).toEqual([]);
    });

    it('orders every hit by descending score', async () => {
      await store.ensure(EMBEDDER, 4);
      await store.upsert(corpus);
      const scores = (await store.query({ vector: [0.9, 0.5, 0.2, 0.1], limit: 4 })).map((h) => h.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    });

    it('filters by service', async () => {
      await store.ensure(EMBEDDER, 4);
      await store.upsert(corpus);
      const hits = await store.query({ vector: [1, 0, 0, 0], limit: 5, filter: { service: 'payments' } });
      expect(hits.map((h) => h.id)).toEqual(['doc-northeast', 'doc-north']);
      expect(await store.query({ vector: [1, 0, 0, 0], limit: 5, filter: { service: 'nowhere' } })).toEqual([]);
    });

    it('upserts by id: the same id replaces its vector and payload', async () => {
      await store.ensure(EMBEDDER, 4);
      await store.upsert(corpus);
      await store.upsert([point('doc-east', [0, 0, 0, 1], { service: 'search', source: 'docs', revised: true })]);
      expect(await store.count()).toBe(corpus.length);
      const [top] = await store.query({ vector: [0, 0, 0, 1], limit: 1 });
      expect(top).toMatchObject({ id: 'doc-east', payload: { revised: true, service: 'search' } });
      expect(top!.score).toBeCloseTo(1, 5);
    });

    it('deletes by id and ignores unknown ids', async () => {
      await store.ensure(EMBEDDER, 4);
      await store.upsert(corpus);
      await store.delete(['doc-north', 'doc-never-stored']);
      expect(await store.count()).toBe(corpus.length - 1);
      const ids = (await store.query({ vector: [0, 1, 0, 0], limit: 10 })).map((h) => h.id);
      expect(ids).not.toContain('doc-north');
    });

    it('lists ids by payload source for re-ingest pruning', async () => {
      await store.ensure(EMBEDDER, 4);
      await store.upsert(corpus);
      expect((await store.idsBySource('docs')).sort()).toEqual(['doc-east', 'doc-north', 'doc-northeast']);
      expect(await store.idsBySource('incidents')).toEqual(['doc-up']);
    });

    it('pages through many ids by source', async () => {
      await store.ensure(EMBEDDER, 4);
      const many = Array.from({ length: 700 }, (_, i) => point(`doc-${i}`, [1, i + 1, 0, 0], { source: 'bulk' }));
      await store.upsert(many);
      const ids = await store.idsBySource('bulk');
      expect(ids).toHaveLength(700);
      expect(new Set(ids).size).toBe(700);
    });

    it('keeps its contents when ensured again with the same embedder', async () => {
      await store.ensure(EMBEDDER, 4);
      await store.upsert(corpus);
      expect(await store.ensure(EMBEDDER, 4)).toBe(false);
      expect(await store.count()).toBe(corpus.length);
    });

    it('rebuilds, never mixes, when the embedder or the dimension changes', async () => {
      await store.ensure(EMBEDDER, 4);
      await store.upsert(corpus);
      expect(await store.ensure('another-embedder', 4)).toBe(true);
      expect(await store.count()).toBe(0);
      await store.upsert([point('doc-a', [1, 0, 0, 0])]);
      expect(await store.ensure('another-embedder', 3)).toBe(true);
      expect(await store.count()).toBe(0);
      await store.upsert([point('doc-b', [0, 0, 1])]);
      expect((await store.query({ vector: [0, 0, 1], limit: 5 })).map((h) => h.id)).toEqual(['doc-b']);
    });

    it('refuses vectors of the wrong dimension, zero vectors and non-finite values, changing nothing', async () => {
      await store.ensure(EMBEDDER, 4);
      await store.upsert(corpus);
      const refused = async (work: Promise<unknown>) => {
        const error = await work.then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(MedicError);
        expect((error as MedicError).code).toBe(ErrorCode.ValidationFailed);
      };
      await refused(store.upsert([point('doc-ok', [1, 2, 3, 4]), point('doc-short', [1, 2, 3])]));
      await refused(store.upsert([point('doc-zero', [0, 0, 0, 0])]));
      await refused(store.upsert([point('doc-nan', [Number.NaN, 0, 0, 1])]));
      await refused(store.query({ vector: [1, 0, 0], limit: 1 }));
      expect(await store.count()).toBe(corpus.length);
    });

    it('reports itself healthy', async () => {
      await store.ensure(EMBEDDER, 4);
      const check = await store.check();
      expect(check).toMatchObject({ name: 'vector store', ok: true });
      expect(check.adapter.length).toBeGreaterThan(0);
    });
  });
}
