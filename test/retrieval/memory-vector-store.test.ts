import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryVectorStore } from '../../src/adapters/vector/memory-vector-store.js';
import { selectTopK } from '../../src/adapters/vector/top-k.js';
import { ErrorCode, MedicError } from '../../src/domain/errors.js';

/** A small seeded generator, so the randomized comparison is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('memory vector store', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'medic-memory-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('persists to its file and a new instance reads it back', async () => {
    const file = join(dir, 'vectors', 'docs.mdv');
    const first = createMemoryVectorStore({ file });
    await first.ensure('e1', 3);
    await first.upsert([{ id: 'a', vector: [1, 0, 0], payload: { source: 'docs', title: 'A' } }, { id: 'b', vector: [0, 1, 0], payload: { source: 'docs' } }]);
    await first.delete(['b']);
    const second = createMemoryVectorStore({ file });
    expect(await second.ensure('e1', 3)).toBe(false);
    expect(await second.count()).toBe(1);
    expect(await second.query({ vector: [1, 0, 0], limit: 5 })).toEqual([{ id: 'a', score: expect.closeTo(1, 6) as number, payload: { source: 'docs', title: 'A' } }]);
  });

  it('sees what another process wrote to the same file', async () => {
    const file = join(dir, 'docs.mdv');
    const worker = createMemoryVectorStore({ file });
    const cli = createMemoryVectorStore({ file });
    await worker.ensure('e1', 2);
    expect(await worker.count()).toBe(0);
    await cli.ensure('e1', 2);
    await cli.upsert([{ id: 'x', vector: [1, 1], payload: {} }]);
    expect(await worker.count()).toBe(1);
  });

  it('says how to recover from a damaged file', async () => {
    const file = join(dir, 'docs.mdv');
    await writeFile(file, 'not an index');
    const store = createMemoryVectorStore({ file });
    const error = await store.ensure('e1', 2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MedicError);
    expect((error as MedicError).code).toBe(ErrorCode.ValidationFailed);
    expect((error as MedicError).message).toContain('docs ingest');
    expect(await store.check()).toMatchObject({ ok: false });
  });

  it('refuses use before ensure with a coded error', async () => {
    const error = await createMemoryVectorStore().upsert([{ id: 'a', vector: [1], payload: {} }]).catch((e: unknown) => e);
    expect((error as MedicError).code).toBe(ErrorCode.Internal);
  });

  it('agrees with brute-force cosine through growth, updates and swap-removals', async () => {
    const random = seeded(7);
    const dimension = 24;
    const store = createMemoryVectorStore();
    await store.ensure('e1', dimension);
    const truth = new Map<string, { vector: number[]; service: string }>();
    // Sparse-ish vectors like the local embedder's, with an occasional dense one.
    const vector = () => Array.from({ length: dimension }, () => (random() < 0.3 ? random() * 2 - 1 : 0)).map((v, i) => (i === 0 ? v + 0.01 : v));
    for (let round = 0; round < 6; round += 1) {
      const points = Array.from({ length: 150 }, (_, i) => ({ id: `p${Math.floor(random() * 400)}`, vector: vector(), payload: { service: i % 3 === 0 ? 'a' : 'b' } }));
      await store.upsert(points);
      for (const p of points) truth.set(p.id, { vector: p.vector, service: p.payload.service });
      const gone = [...truth.keys()].filter(() => random() < 0.2);
      await store.delete(gone);
      for (const id of gone) truth.delete(id);
    }
    expect(await store.count()).toBe(truth.size);
    for (let q = 0; q < 20; q += 1) {
      const query = vector();
      const norm = Math.hypot(...query);
      const expected = [...truth.entries()]
        .filter(([, t]) => q % 2 === 0 || t.service === 'a')
        .map(([id, t]) => ({ id, score: t.vector.reduce((s, v, i) => s + v * query[i]!, 0) / (Math.hypot(...t.vector) * norm) }))
        .sort((x, y) => y.score - x.score)
        .slice(0, 5);
      const hits = await store.query({ vector: query, limit: 5, ...(q % 2 === 0 ? {} : { filter: { service: 'a' } }) });
      expect(hits.map((h) => h.score)).toEqual(expected.map((e) => expect.closeTo(e.score, 5) as number));
    }
  });

  it('selects the top k in one pass, keeping the earlier row on ties', () => {
    expect(selectTopK([0.1, 0.9, 0.5, 0.9, 0.3], 3)).toEqual([
      { row: 1, score: 0.9 },
      { row: 3, score: 0.9 },
      { row: 2, score: 0.5 },
    ]);
    expect(selectTopK([0.1, 0.9, 0.5], 2, (row) => row !== 1)).toEqual([
      { row: 2, score: 0.5 },
      { row: 0, score: 0.1 },
    ]);
    expect(selectTopK([0.1], 0)).toEqual([]);
  });
});

describe('memory vector store shared by processes with different embedders', () => {
  it('refuses to write into an index another process rebuilt for another embedder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'medic-memory-'));
    try {
      const file = join(dir, 'docs.mdv');
      const worker = createMemoryVectorStore({ file });
      await worker.ensure('e1', 2);
      await createMemoryVectorStore({ file }).ensure('e2', 2);
      const error = await worker.upsert([{ id: 'a', vector: [1, 0], payload: {} }]).catch((e: unknown) => e);
      expect((error as MedicError).code).toBe(ErrorCode.Conflict);
      expect((error as MedicError).message).toContain('MEDIC_EMBEDDER');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
