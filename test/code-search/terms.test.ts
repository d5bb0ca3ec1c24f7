import { describe, expect, it } from 'vitest';
import { createMemoryRepository } from '../../src/code-search/memory-repository.js';
import { rankFiles } from '../../src/code-search/search-code.js';
import { extractTerms, splitIdentifier, weighTerms } from '../../src/code-search/terms.js';
import { parseStackTrace } from '../../src/domain/stack-trace.js';
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

  it('parses and ranks each 64 KiB adversarial input, one line or many, without blowing up', async () => {
    const repo = createMemoryRepository({ 'src/a.ts': 'export const a = 1;\n' });
    for (const [shape, text] of Object.entries(ADVERSARIAL_64K)) {
      for (const input of [text, text.replace(/(.{1,1900})/g, '$1\n'), `    at ${text.slice(0, 1_900)} (/srv/${text.slice(0, 1_900)}.ts:1:1)`]) {
        const started = performance.now();
        parseStackTrace(input);
        await rankFiles(repo, { text: input });
        expect(performance.now() - started, shape).toBeLessThan(1_000);
      }
    }
  });
});
