import { describe, expect, it } from 'vitest';
import type { RecentChange } from '../../src/domain/analysis.js';
import type { CodeRepository } from '../../src/ports/code.js';
import { indexFilesByStem } from '../../src/code-search/map-frames.js';
import { findRecentChanges, mapFrameToRepo } from '../../src/retrieval/find-recent-changes.js';
import { buildEvent } from '../support/builders.js';

/** A plain in-memory CodeRepository: files and a commit log, and a record of what was asked. */
class FakeCodeRepository implements CodeRepository {
  readonly asked: { paths: string[]; sinceDays: number; limit: number }[] = [];
  constructor(
    private readonly files: string[],
    private readonly commits: RecentChange[] = [],
  ) {}
  async check() {
    return { name: 'code', adapter: 'fake', ok: true, detail: '' };
  }
  async sync() {}
  async listFiles() {
    return [...this.files];
  }
  async readFile() {
    return undefined;
  }
  async recentChanges(paths: string[], sinceDays: number, limit: number) {
    this.asked.push({ paths, sinceDays, limit });
    return this.commits.filter((c) => c.files.some((f) => paths.includes(f))).slice(0, limit);
  }
  async blame() {
    return undefined;
  }
  async blameFunction() {
    return undefined;
  }
  async commitFileChange() {
    return undefined;
  }
}

const FILES = ['src/checkout/cart-total.ts', 'src/checkout/discounts.ts', 'src/payments/index.ts', 'src/inventory/index.ts', 'src/main/java/com/shop/payment/Client.java', 'README.md'];
const COMMITS: RecentChange[] = [
  { sha: 'a1', author: 'dev', date: '2026-11-29', subject: 'Count gift cards as non-discountable', files: ['src/checkout/discounts.ts'] },
  { sha: 'b2', author: 'dev', date: '2026-11-20', subject: 'Tidy README', files: ['README.md'] },
];

const nodeTrace = [
  'RangeError: Invalid discount per item: Infinity',
  '    at spreadDiscount (/srv/shop/src/checkout/discounts.ts:44:25)',
  '    at computeCartTotal (/srv/shop/src/checkout/cart-total.ts:24:18)',
  '    at Layer.handle (/srv/shop/node_modules/express/lib/router/layer.js:95:5)',
].join('\n');

describe('findRecentChanges', () => {
  it("reads the frames of the repository's own installed gem as its files", async () => {
    // https://github.com/rubocop/rubocop-ast/commit/b0bf2f2e73d1bb893c9fbb0fc169b1466fca4f3a
    const files = ['lib/rubocop/ast/node/send_node.rb', 'lib/rubocop/ast/traversal.rb'];
    const repo = new FakeCodeRepository(files, [{ sha: 'c3', author: 'dev', date: '2026-11-28', subject: 'Handle lambdas', files: ['lib/rubocop/ast/node/send_node.rb'] }]);
    const raw = ["undefined method `source' for nil:NilClass", "/home/pocke/.gem/ruby/2.4.0/gems/rubocop-0.51.0/lib/rubocop/ast/node/send_node.rb:40:in `stabby_lambda?'", "/home/pocke/.gem/ruby/2.4.0/gems/rubocop-0.51.0/lib/rubocop/ast/traversal.rb:12:in `walk'"].join('\n');
    const changes = await findRecentChanges(repo, { event: buildEvent({ raw }), candidates: [], sinceDays: 14, limit: 5 });
    expect(repo.asked[0]?.paths).toEqual(files);
    expect(changes.map((c) => c.sha)).toEqual(['c3']);
  });

  it('maps in-app stack frames to repo paths by suffix, then adds known candidates, and asks for their commits', async () => {
    const repo = new FakeCodeRepository(FILES, COMMITS);
    const changes = await findRecentChanges(repo, { event: buildEvent({ raw: nodeTrace }), candidates: ['./src/payments/index.ts', 'src/not-in-repo.ts'], sinceDays: 14, limit: 5 });
    expect(repo.asked).toEqual([{ paths: ['src/checkout/discounts.ts', 'src/checkout/cart-total.ts', 'src/payments/index.ts'], sinceDays: 14, limit: 5 }]);
    expect(changes.map((c) => c.sha)).toEqual(['a1']);
  });

  it('maps Java frames (package path) onto the source tree', async () => {
    const repo = new FakeCodeRepository(FILES);
    const raw = 'java.lang.IllegalStateException: closed\n\tat com.shop.payment.Client.charge(Client.java:42)\n\tat java.base/java.lang.Thread.run(Thread.java:833)';
    await findRecentChanges(repo, { event: buildEvent({ raw }), candidates: [], sinceDays: 7 });
    expect(repo.asked[0]).toEqual({ paths: ['src/main/java/com/shop/payment/Client.java'], sinceDays: 7, limit: 10 });
  });

  it('asks nothing when there is no suspect at all', async () => {
    const repo = new FakeCodeRepository(FILES, COMMITS);
    expect(await findRecentChanges(repo, { event: buildEvent({ raw: 'plain message, no trace' }), candidates: [], sinceDays: 14 })).toEqual([]);
    expect(repo.asked).toEqual([]);
  });

  it('prefers the longest shared path suffix and gives up on a file name shared too widely', () => {
    const byName = indexFilesByStem(['src/payments/index.ts', 'src/inventory/index.ts', 'src/a/index.ts', 'src/b/index.ts']);
    expect(mapFrameToRepo('/srv/app/src/payments/index.ts', byName)).toEqual(['src/payments/index.ts']);
    expect(mapFrameToRepo('/srv/app/index.ts', byName)).toEqual([]);
    expect(mapFrameToRepo('C:\\build\\src\\inventory\\index.ts', byName)).toEqual(['src/inventory/index.ts']);
  });
});
