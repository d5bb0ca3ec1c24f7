/**
 * A log message is untrusted and may be 16 KiB of distinct words: the lexical scan is bounded in
 * terms and time, so one search never holds a worker for seconds, and the stack still decides.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryRepository } from '../../src/code-search/memory-repository.js';
import { createCodeSearch, MAX_TERMS, mostInformative } from '../../src/code-search/search-code.js';
import { seeded } from '../support/storm-events.js';

const random = seeded(7);
const word = () => Array.from({ length: 7 + Math.floor(random() * 6) }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(random() * 26)]).join('');

describe('a hostile code-search query', () => {
  it('keeps the most informative terms: heaviest first, then the longest', () => {
    const terms = [{ term: 'abc', weight: 1 }, { term: 'discountperitem', weight: 1 }, { term: 'spread', weight: 2 }, ...Array.from({ length: 200 }, (_, i) => ({ term: `filler${i}`, weight: 0.5 }))];
    const kept = mostInformative(terms);
    expect(kept).toHaveLength(MAX_TERMS);
    expect(kept.slice(0, 3).map((t) => t.term)).toEqual(['spread', 'discountperitem', 'abc']);
  });

  it('ranks a 6 MB repository against 16 KiB of distinct words in well under a second of scanning, the frame file first', async () => {
    const files: Record<string, string> = { 'src/checkout/discounts.ts': 'export function spreadDiscount() {\n  return 1;\n}\n' };
    for (let f = 0; f < 600; f++) {
      let body = '';
      while (body.length < 10_000) body += `export function ${word()}${word()}() { return ${word()}; }\n`;
      files[`src/m${f % 20}/${word()}.ts`] = body;
    }
    const search = createCodeSearch({ ...createMemoryRepository(files), revision: async () => 'r1' });
    let message = 'TypeError: boom ';
    while (message.length < 16 * 1024) message += `${word()} `;
    const text = `${message}\n    at spreadDiscount (/srv/shop/src/checkout/discounts.ts:2:3)`;
    await search({ text: 'warm', limit: 5 });
    const started = performance.now();
    const found = await search({ text, limit: 5 });
    // Unbounded, this scan took about 9 s on this repository; bounded, it stops at its budget.
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(found[0]?.file).toBe('src/checkout/discounts.ts');
  });
});
