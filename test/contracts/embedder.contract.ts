/**
 * The one conformance suite for the Embedder port, run against the local embedder and the OpenAI
 * embedder (through the loopback OpenAI-compatible server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../../src/ports/retrieval.js';

export interface EmbedderHarness {
  embedder: Embedder;
  cleanup(): Promise<void>;
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((v, i) => {
    dot += v * (b[i] ?? 0);
    na += v * v;
    nb += (b[i] ?? 0) ** 2;
  });
  return dot / Math.sqrt(na * nb);
}

export function describeEmbedderContract(name: string, open: () => Promise<EmbedderHarness>): void {
  describe(`Embedder contract: ${name}`, () => {
    let harness: EmbedderHarness;
    let embedder: Embedder;

    beforeAll(async () => {
      harness = await open();
      embedder = harness.embedder;
    });
    afterAll(async () => {
      await harness.cleanup();
    });

    it('names itself and its dimension', () => {
      expect(embedder.id.length).toBeGreaterThan(0);
      expect(Number.isInteger(embedder.dimension) && embedder.dimension > 0).toBe(true);
    });

    it('returns nothing for no texts', async () => {
      expect(await embedder.embed([])).toEqual([]);
    });

    it('returns one finite, non-zero vector of the declared dimension per text, in order', async () => {
      const texts = ['payment declined by gateway', 'disk quota exceeded on /var', '', 'x'.repeat(50_000)];
      const vectors = await embedder.embed(texts);
      expect(vectors).toHaveLength(texts.length);
      for (const vector of vectors) {
        expect(vector).toHaveLength(embedder.dimension);
        expect(vector.every(Number.isFinite)).toBe(true);
        expect(vector.some((v) => v !== 0)).toBe(true);
      }
      const [alone] = await embedder.embed(['disk quota exceeded on /var']);
      expect(cosine(alone!, vectors[1]!)).toBeCloseTo(1, 5);
    });

    it('is deterministic and independent of batch position', async () => {
      const [a1, b1] = await embedder.embed(['timeout calling inventory', 'null pointer in cart total']);
      const [b2, a2] = await embedder.embed(['null pointer in cart total', 'timeout calling inventory']);
      expect(cosine(a1!, a2!)).toBeCloseTo(1, 6);
      expect(cosine(b1!, b2!)).toBeCloseTo(1, 6);
    });

    it('embeds more texts than one request holds', async () => {
      const texts = Array.from({ length: 150 }, (_, i) => `worker ${i} failed to acquire lock on queue ${i % 7}`);
      const vectors = await embedder.embed(texts);
      expect(vectors).toHaveLength(150);
      expect(vectors.every((v) => v.length === embedder.dimension)).toBe(true);
    });

    it('puts a reworded error closer than an unrelated one', async () => {
      const [error, reworded, unrelated] = await embedder.embed([
        'connection refused to database host',
        'database host connection refused',
        'user logged in successfully',
      ]);
      expect(cosine(error!, reworded!)).toBeGreaterThan(cosine(error!, unrelated!));
    });
  });
}
