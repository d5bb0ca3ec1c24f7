import { describe, expect, it } from 'vitest';
import { createMemoryRepository } from '../../src/code-search/memory-repository.js';
import { createCodeSearch, searchCode } from '../../src/code-search/search-code.js';
import { ErrorCode, MedicError } from '../../src/domain/errors.js';
import type { CodeRepository } from '../../src/ports/code.js';

const FILES: Record<string, string> = {
  'src/checkout/discounts.ts': 'export function spreadDiscount(amount: number, itemCount: number) {\n  return Math.floor(amount / itemCount);\n}\n',
  'src/checkout/cart-total.ts': "import { spreadDiscount } from './discounts.js';\nexport function priceCart() { return spreadDiscount(1, 0); }\n",
  'src/orders/pagination.ts': 'export function pageWindow(page: number, pageCount: number) {\n  if (page >= pageCount) throw new RangeError(`page index ${page} out of range`);\n}\n',
  'test/pagination.test.ts': 'pageWindow page index out of range\n',
};
const TRACE = 'RangeError: Invalid discount per item: Infinity\n    at spreadDiscount (/srv/shop/src/checkout/discounts.ts:2:10)\n    at priceCart (/srv/shop/src/checkout/cart-total.ts:2:40)';

/** A repository at a revision the test moves, counting the reads that reach it. */
function counted(files: Record<string, string>, options: { revision?: boolean; failOnce?: string } = {}) {
  const calls = { listFiles: 0, readFile: 0 };
  let revision = 'a1';
  let current = createMemoryRepository(files);
  let failing = options.failOnce;
  const repo: CodeRepository = {
    ...current,
    listFiles: () => (calls.listFiles++, current.listFiles()),
    readFile: async (path) => {
      calls.readFile++;
      if (path === failing) {
        failing = undefined;
        throw new Error('disk hiccup');
      }
      return current.readFile(path);
    },
    ...(options.revision === false ? {} : { revision: async () => revision }),
  };
  const moveTo = (next: string, nextFiles: Record<string, string>) => {
    revision = next;
    current = createMemoryRepository(nextFiles);
  };
  return { calls, repo, moveTo };
}

describe('code search kept per repository revision', () => {
  it('answers as a fresh search does, reading the repository once for many searches at one revision', async () => {
    const { calls, repo } = counted(FILES);
    const search = createCodeSearch(repo, { maxBytes: 4_096 });
    const queries = [{ text: TRACE }, { text: 'page index 3 out of range in pageWindow', limit: 2 }, { text: TRACE, impactedComponent: 'checkout/cart-total' }];
    for (const query of queries) expect(await search(query)).toEqual(await searchCode(createMemoryRepository(FILES), { ...query, maxBytes: 4_096 }));
    await Promise.all(queries.map((query) => search(query)));
    // Three candidate files (the test file is never one), each read once, and one listing.
    expect(calls).toEqual({ listFiles: 1, readFile: 3 });
  });

  it('builds a new index when the repository moves to a new revision', async () => {
    const { calls, repo, moveTo } = counted(FILES);
    const search = createCodeSearch(repo);
    expect((await search({ text: TRACE }))[0]?.file).toBe('src/checkout/discounts.ts');
    moveTo('b2', { ...FILES, 'src/checkout/discounts.ts': 'export const moved = true;\n', 'src/checkout/spread.ts': 'export function spreadDiscount() {}\n' });
    const after = await search({ text: 'spreadDiscount' });
    expect(after.map((c) => c.file)).toContain('src/checkout/spread.ts');
    expect(after.find((c) => c.file === 'src/checkout/discounts.ts')?.content ?? 'export const moved = true;\n').toBe('export const moved = true;\n');
    expect(calls.listFiles).toBe(2);
  });

  it('keeps nothing when the revision is unknown, and never keeps an index with a failed read', async () => {
    const unknown = counted(FILES, { revision: false });
    const plain = createCodeSearch(unknown.repo);
    await plain({ text: TRACE });
    await plain({ text: TRACE });
    expect(unknown.calls.listFiles).toBe(2);

    const flaky = counted(FILES, { failOnce: 'src/checkout/discounts.ts' });
    const search = createCodeSearch(flaky.repo);
    expect((await search({ text: 'spreadDiscount amount itemCount' })).map((c) => c.file)).not.toContain('src/checkout/discounts.ts');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await search({ text: 'spreadDiscount amount itemCount' }))[0]?.file).toBe('src/checkout/discounts.ts');
    expect(flaky.calls.listFiles).toBe(2);
  });

  it('keeps an index whose only unread files were refused for what they are', async () => {
    const inner = createMemoryRepository(FILES);
    let lists = 0;
    const repo: CodeRepository = {
      ...inner,
      listFiles: () => (lists++, inner.listFiles()),
      readFile: async (path) => {
        if (path === 'src/orders/pagination.ts') throw new MedicError(ErrorCode.FixRefused, 'binary');
        return inner.readFile(path);
      },
      revision: async () => 'a1',
    };
    const search = createCodeSearch(repo);
    await search({ text: TRACE });
    await new Promise((resolve) => setTimeout(resolve, 0));
    await search({ text: TRACE });
    expect(lists).toBe(1);
  });

  it('keeps no index over its character bound, and the oldest index goes first past the count bound', async () => {
    const big = counted(FILES);
    const capped = createCodeSearch(big.repo, {}, { chars: 100 });
    await capped({ text: TRACE });
    await new Promise((resolve) => setTimeout(resolve, 0));
    await capped({ text: TRACE });
    expect(big.calls.listFiles).toBe(2);

    const moving = counted(FILES);
    const two = createCodeSearch(moving.repo, {}, { indexes: 1 });
    await two({ text: TRACE });
    moving.moveTo('b2', FILES);
    await two({ text: TRACE });
    moving.moveTo('a1', FILES);
    await two({ text: TRACE });
    expect(moving.calls.listFiles).toBe(3);
  });
});
