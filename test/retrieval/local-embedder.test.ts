import { describe, expect, it } from 'vitest';
import { extractFeatures, splitIdentifier } from '../../src/adapters/embedding/error-text-features.js';
import { createLocalEmbedder, embedLocally } from '../../src/adapters/embedding/local-embedder.js';

const dot = (a: number[], b: number[]) => a.reduce((sum, v, i) => sum + v * (b[i] ?? 0), 0);

describe('local embedder', () => {
  it('splits camelCase, PascalCase acronyms and snake_case identifiers', () => {
    expect(splitIdentifier('WcpInitialize')).toEqual(['wcp', 'initialize']);
    expect(splitIdentifier('MRAppMaster')).toEqual(['mr', 'app', 'master']);
    expect(splitIdentifier('max_retry_count')).toEqual(['max', 'retry', 'count']);
  });

  it('masks numbers, hex, ids and addresses so variable parts do not move the vector', () => {
    const a = embedLocally('Timeout after 3000 ms calling 10.0.0.12:8080 for order 7f3a9c2e-1b44-4c7d-9a51-22e0c6f1d0aa', 256);
    const b = embedLocally('Timeout after 15 ms calling 192.168.1.9:443 for order 0b8e0c55-4d1e-4a9b-8f6e-91c2a7d3e4f1', 256);
    expect(dot(a, b)).toBeCloseTo(1, 6);
  });

  it('keeps error codes whole, because they name the family', () => {
    expect(extractFeatures('checkout failed with CO-500').map((f) => f.key)).toContain('c:co-500');
    const same = dot(embedLocally('CO-500 checkout failed', 256), embedLocally('CO-500 checkout failed', 256));
    const other = dot(embedLocally('CO-500 checkout failed', 256), embedLocally('CO-404 checkout failed', 256));
    expect(other).toBeLessThan(same);
  });

  it('matches a raw message to its template over a similar-looking one', () => {
    const message = embedLocally('Receiving block blk_-1608999687919862906 src: /10.250.19.102:54106 dest: /10.250.19.102:50010', 256);
    const right = embedLocally('Receiving block blk_<*> src: /<*>:<*> dest: /<*>:<*>', 256);
    const wrong = embedLocally('Received block blk_<*> of size <*> from /<*>', 256);
    expect(dot(message, right)).toBeGreaterThan(dot(message, wrong));
  });

  it('gives empty text a unit vector (cosine is undefined on zero vectors)', () => {
    const vector = embedLocally('', 64);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 6);
  });

  it('names its feature version and dimension, so a change rebuilds the index', () => {
    expect(createLocalEmbedder().id).toBe('local-hash-v1-d256');
    expect(createLocalEmbedder({ dimension: 512 }).id).toBe('local-hash-v1-d512');
    expect(() => createLocalEmbedder({ dimension: 3 })).toThrow(RangeError);
  });

  it('produces sparse vectors, which is what keeps the embedded index fast', () => {
    const vector = embedLocally('java.lang.NullPointerException: Cannot invoke "Cart.total()" because "cart" is null', 256);
    expect(vector.filter((v) => v !== 0).length).toBeLessThan(64);
  });
});
