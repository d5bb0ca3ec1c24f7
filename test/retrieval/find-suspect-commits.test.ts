import { describe, expect, it } from 'vitest';
import type { BlameHit } from '../../src/ports/code.js';
import { findSuspectCommitsIn } from '../../src/retrieval/find-suspect-commits.js';

const hit = (sha: string, date: string, path = 'src/checkout/discounts.ts'): BlameHit => ({ sha: sha.padEnd(40, '0'), author: 'Chen', date, subject: `commit ${sha}`, path });

function repoWith(lines: Record<string, BlameHit>, functions: Record<string, BlameHit> = {}) {
  const asked: string[] = [];
  return {
    asked,
    listFiles: async () => ['src/checkout/discounts.ts', 'src/checkout/cart-total.ts', 'src/a/index.ts', 'src/b/index.ts', 'test/discounts.test.ts'],
    blame: async (path: string, line: number) => (asked.push(`${path}:${line}`), lines[`${path}:${line}`]),
    blameFunction: async (path: string, fn: string) => (asked.push(`${path}#${fn}`), functions[`${path}#${fn}`]),
  };
}

const TRACE = [
  'RangeError: Invalid discount per item: Infinity',
  '    at spreadDiscount (/srv/shop/src/checkout/discounts.ts:44:25)',
  '    at applyDiscounts (/srv/shop/src/checkout/discounts.ts:58:10)',
  '    at computeCartTotal (/srv/shop/src/checkout/cart-total.ts:24:18)',
  '    at run (/srv/shop/test/discounts.test.ts:3:1)',
].join('\n');

describe('findSuspectCommits', () => {
  it("blames each top frame's line, then the innermost function as evidence after them, and ages each from the first event", async () => {
    const repo = repoWith(
      { 'src/checkout/discounts.ts:44': hit('old', '2026-11-14T08:00:00Z'), 'src/checkout/discounts.ts:58': hit('old', '2026-11-14T08:00:00Z'), 'src/checkout/cart-total.ts:24': hit('cart', '2026-11-12T08:00:00Z', 'src/checkout/total.ts') },
      { 'src/checkout/discounts.ts#spreadDiscount': hit('new', '2026-11-28T20:00:00Z') },
    );
    const suspects = await findSuspectCommitsIn(repo, { text: TRACE, time: '2026-11-30T08:00:00Z' });
    expect(suspects.map((s) => [s.sha.slice(0, 4), s.file, s.line, s.function, s.ageDays])).toEqual([
      ['old0', 'src/checkout/discounts.ts', 44, undefined, 16],
      ['cart', 'src/checkout/cart-total.ts', 24, undefined, 18],
      ['new0', 'src/checkout/discounts.ts', 44, 'spreadDiscount', 1.5],
    ]);
    expect(suspects[1]?.pathAtCommit).toBe('src/checkout/total.ts');
    // A test frame is never blamed: a test is not a fix target.
    expect(repo.asked.some((a) => a.startsWith('test/'))).toBe(false);
  });

  it('skips frames that map to several files, and traces without frames', async () => {
    const repo = repoWith({ 'src/a/index.ts:1': hit('a', '2026-11-29T00:00:00Z') });
    expect(await findSuspectCommitsIn(repo, { text: 'TypeError: x\n    at f (/srv/app/index.ts:1:1)', time: '2026-11-30T00:00:00Z' })).toEqual([]);
    expect(await findSuspectCommitsIn(repo, { text: 'no trace here', time: '2026-11-30T00:00:00Z' })).toEqual([]);
    expect(repo.asked).toEqual([]);
  });
});
