import type { Embedder } from '../../ports/retrieval.js';
import { extractFeatures } from './error-text-features.js';

export interface LocalEmbedderOptions {
  /** Hash buckets. More means fewer collisions but a bigger index; 256 keeps 100k docs near 100 MB. */
  dimension?: number;
}

/** Bump when the features or hashing change: the id is how stores notice they must rebuild. */
const FEATURE_VERSION = 'v1';

// FNV-1a: tiny, fast and stable across platforms and releases, which is all feature hashing needs.
function fnv1a(text: string, seed: number): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  // A final avalanche so that nearby keys spread over the buckets.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash >>> 0;
}

/** Embeds one text: features summed per key with sublinear repetition, signed-hashed, L2-normalized. */
export function embedLocally(text: string, dimension: number): number[] {
  const counts = new Map<string, { weight: number; n: number }>();
  for (const { key, weight } of extractFeatures(text)) {
    const seen = counts.get(key);
    if (seen) seen.n += 1;
    else counts.set(key, { weight, n: 1 });
  }
  // An empty text still gets a unit vector: cosine is undefined on zero vectors (Qdrant rejects them).
  if (counts.size === 0) counts.set('∅', { weight: 1, n: 1 });

  const vector = new Array<number>(dimension).fill(0);
  for (const [key, { weight, n }] of counts) {
    const hash = fnv1a(key, 0);
    const bucket = hash % dimension;
    // The sign bit comes from a second hash so colliding features cancel out on average.
    const sign = fnv1a(key, 0x9e3779b9) & 1 ? 1 : -1;
    vector[bucket] = (vector[bucket] ?? 0) + sign * weight * (1 + Math.log(n));
  }
  let norm = 0;
  for (const v of vector) norm += v * v;
  norm = Math.sqrt(norm);
  // Colliding features can cancel to exactly zero; fall back to a fixed unit vector then.
  if (norm === 0) return vector.map((_, i) => (i === 0 ? 1 : 0));
  return vector.map((v) => v / norm);
}

/**
 * The embedded default: a deterministic embedding of error text that needs no model download and
 * no network. Tuned for logs: identifiers are split, numbers and ids masked, word order kept by bigrams.
 */
export function createLocalEmbedder(options: LocalEmbedderOptions = {}): Embedder {
  const dimension = options.dimension ?? 256;
  if (!Number.isInteger(dimension) || dimension < 16) throw new RangeError(`The local embedder needs an integer dimension ≥ 16, got ${dimension}.`);
  return {
    id: `local-hash-${FEATURE_VERSION}-d${dimension}`,
    dimension,
    async embed(texts: string[]): Promise<number[][]> {
      return texts.map((text) => embedLocally(text, dimension));
    },
  };
}
