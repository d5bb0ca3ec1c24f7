import { describe, expect, it } from 'vitest';
import { extractTerms, splitIdentifier, weighTerms } from '../../src/code-search/terms.js';
import { ADVERSARIAL_64K } from '../../bench/adversarial-text.js';

describe('extractTerms', () => {
  it('splits camelCase, acronyms, snake_case and $ names, and drops generic words', () => {
    expect(splitIdentifier('parseHTTPResponse')).toEqual(['parse', 'http', 'response']);
    expect(splitIdentifier('XMLHttpRequest')).toEqual(['xml', 'http', 'request']);
    expect(splitIdentifier('user_id$x')).toEqual(['user', 'id', 'x']);
    expect(splitIdentifier('getV2Api')).toEqual(['get', 'v2', 'api']);
    expect(extractTerms("TypeError: Cannot read properties of undefined (reading 'authorizationId') at toAuthorization")).toEqual(
      expect.arrayContaining(['authorizationid', 'authorization', 'toauthorization']),
    );
    expect(extractTerms('error at the null value of 12 ab')).toEqual([]);
  });

  it('cuts words longer than any real name instead of splitting them', () => {
    const terms = extractTerms(`${'Ab'.repeat(5_000)} cartTotal`);
    expect(terms).toContain('cart');
    expect(Math.max(...terms.map((t) => t.length))).toBeLessThanOrEqual(64);
  });

  // A generous bound: the figures come from `npm run bench -- localization` (terms_worst_ms_64k).
  it('finishes each 64 KiB adversarial input in linear time', () => {
    for (const [shape, text] of Object.entries(ADVERSARIAL_64K)) {
      const started = performance.now();
      extractTerms(text);
      weighTerms([{ text, weight: 1 }]);
      expect(performance.now() - started, shape).toBeLessThan(500);
    }
  });
});
