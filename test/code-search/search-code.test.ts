import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateCommand } from '../../src/cli/commands/locate.js';
import { createDirectoryRepository } from '../../src/code-search/directory-repository.js';
import { createCandidateFilter } from '../../src/code-search/candidate-filter.js';
import { createGlobFilter, isExcludedPath } from '../../src/code-search/file-rules.js';
import { indexFilesByStem, mapFramePath } from '../../src/code-search/map-frames.js';
import { rankFiles, searchCode } from '../../src/code-search/search-code.js';

let root: string;
const marker = () => join(root, 'EXECUTED');

const FILES: Record<string, string> = {
  'src/checkout/discounts.ts': 'export function spreadDiscount(amount: number, itemCount: number) {\n  const perItem = Math.floor(amount / itemCount);\n  return perItem;\n}\n',
  'src/checkout/cart-total.ts': "import { spreadDiscount } from './discounts.js';\nexport function computeCartTotal() { return spreadDiscount(1, 0); }\n",
  'src/shared/money.ts': 'export function assertCents(value: number, what: string) {\n  if (!Number.isInteger(value)) throw new RangeError(`${what} must be whole cents`);\n  return value;\n}\n',
  'src/payments/payment-client.ts': 'export function toAuthorization(body: any) {\n  return body.authorization.authorizationId;\n}\n',
  'src/orders/pagination.ts': 'export function pageWindow(page: number, pageCount: number) {\n  if (page >= pageCount) throw new RangeError(`page index ${page} out of range`);\n}\n',
  'src/index.ts': 'export {};\n',
  'lib/index.ts': 'export {};\n',
  'test/pagination.test.ts': 'pageWindow page index out of range pageWindow pageWindow\n',
  'dist/orders/pagination.js': 'function pageWindow() { /* page index out of range */ }\n',
  'vendor/left-pad/index.js': 'module.exports = function pageWindow() {};\n',
  // Would leave a marker if code search ever imported or ran a repository file.
  'src/evil.js': "require('fs').writeFileSync(process.env.MARKER ?? 'EXECUTED', 'ran'); // pageWindow\n",
  'src/big.ts': `// pageWindow\n${'export const filler = 1;\n'.repeat(4_000)}`,
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'medic-search-test-'));
  for (const [file, content] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), content);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('mapFramePath', () => {
  const index = indexFilesByStem(Object.keys(FILES));
  it('maps deployment prefixes, compiled output and package paths to repository files by suffix', () => {
    expect(mapFramePath('/srv/shop/src/checkout/discounts.ts', index)).toEqual([{ file: 'src/checkout/discounts.ts', segments: 3 }]);
    expect(mapFramePath('/app/dist/checkout/discounts.js', index)).toEqual([{ file: 'src/checkout/discounts.ts', segments: 3 }]);
    expect(mapFramePath('C:\\deploy\\src\\payments\\payment-client.ts', index)[0]?.file).toBe('src/payments/payment-client.ts');
    expect(mapFramePath('payments/payment-client.ts', index)[0]?.file).toBe('src/payments/payment-client.ts');
  });
  it('does not let a bare common file name claim unrelated files', () => {
    expect(mapFramePath('/usr/lib/node/other/index.js', index)).toEqual([]);
    expect(mapFramePath('/srv/shop/src/unknown.ts', index)).toEqual([]);
  });
});

describe('file rules', () => {
  it('excludes vendored, generated and build output', () => {
    for (const f of ['vendor/x/a.go', 'node_modules/x/a.js', 'dist/a.js', 'build/a.js', 'target/A.class', 'src/api.pb.go', 'src/types.d.ts', 'src/generated/a.ts']) {
      expect(isExcludedPath(f), f).toBe(true);
    }
    for (const f of ['src/a.ts', 'internal/checkout/discounts.go', 'shop/orders/pagination.py', 'src/main/java/com/shop/Cart.java']) expect(isExcludedPath(f), f).toBe(false);
  });
  it('never takes tests, specs, fixtures or mocks as candidates', () => {
    const filter = createCandidateFilter();
    for (const f of ['test/a.ts', 'src/a.test.ts', 'src/a.spec.tsx', 'src/__tests__/a.ts', 'src/__mocks__/a.ts', 'pkg/a_test.go', 'tests/test_a.py', 'shop/conftest.py', 'src/FooTest.java', 'src/FooTests.cs', 'src/test/java/com/x/Foo.java', 'tests/org/jfree/chart/junit/AxisTests.java', 'spec/models/cart_spec.rb', 'fixtures/a.py', 'src/CartMock.kt']) {
      expect(filter.isTest(f), f).toBe(true);
      expect(filter.isCandidate(f), f).toBe(false);
    }
    for (const f of ['src/a.ts', 'src/latest.ts', 'src/main/java/com/x/Contest.java', 'shop/scheduling.py']) expect(filter.isCandidate(f), f).toBe(true);
    expect(createCandidateFilter({ testGlobs: ['**/checks/**'] }).isCandidate('test/a.ts')).toBe(true);
    expect(createCandidateFilter({ testGlobs: ['**/checks/**'] }).isCandidate('src/checks/a.ts')).toBe(false);
  });
  it('selects with globs and excludes with !globs', () => {
    const filter = createGlobFilter(['src/**', '!src/shared/**', '**/*.{ts,py}']);
    expect(filter('src/checkout/discounts.ts')).toBe(true);
    expect(filter('src/shared/money.ts')).toBe(false);
    expect(filter('tools/x.py')).toBe(true);
    expect(filter('docs/readme.md')).toBe(false);
  });
});

describe('searchCode', () => {
  const repo = () => createDirectoryRepository(root);

  it('ranks the innermost in-app frame first, past the guard that raised the error', async () => {
    const text = [
      'RangeError: discount must be whole cents',
      '    at assertCents (/srv/shop/src/shared/money.ts:2:27)',
      '    at spreadDiscount (/srv/shop/src/checkout/discounts.ts:2:19)',
      '    at computeCartTotal (/srv/shop/src/checkout/cart-total.ts:2:46)',
      '    at Layer.handle (/srv/shop/node_modules/express/lib/router/layer.js:95:5)',
    ].join('\n');
    const ranked = await rankFiles(repo(), { text });
    expect(ranked.slice(0, 3).map((r) => r.file)).toEqual(['src/checkout/discounts.ts', 'src/checkout/cart-total.ts', 'src/shared/money.ts']);
  });

  it('finds the file from the message alone, ignoring tests, build output, vendored code and generic words', async () => {
    const candidates = await searchCode(repo(), { text: 'Error: page index 3 out of range in pageWindow', limit: 5 });
    expect(candidates[0]?.file).toBe('src/orders/pagination.ts');
    expect(candidates[0]?.content).toBe(FILES['src/orders/pagination.ts']);
    const files = candidates.map((c) => c.file);
    for (const excluded of ['test/pagination.test.ts', 'dist/orders/pagination.js', 'vendor/left-pad/index.js']) expect(files).not.toContain(excluded);
    expect(candidates.length).toBeLessThanOrEqual(5);
    expect(existsSync(marker())).toBe(false);
  });

  it('never ranks a test file a frame names, nor vendored or built code, but ranks the test\'s subject', async () => {
    const ranked = await rankFiles(repo(), { text: 'Error: boom\n    at x (/srv/shop/test/pagination.test.ts:1:1)\n    at y (/srv/shop/dist/orders/pagination.js:1:1)\n    at z (/srv/shop/vendor/left-pad/index.js:1:1)' });
    const files = ranked.map((r) => r.file);
    for (const excluded of ['test/pagination.test.ts', 'dist/orders/pagination.js', 'vendor/left-pad/index.js']) expect(files).not.toContain(excluded);
    expect(files[0]).toBe('src/orders/pagination.ts');
  });

  it('uses the impacted component and evidence, and honours languages, globs and the size cap', async () => {
    const byComponent = await searchCode(repo(), { text: 'request failed', impactedComponent: 'payment client toAuthorization', evidence: ['authorizationId was null'] });
    expect(byComponent[0]?.file).toBe('src/payments/payment-client.ts');
    const onlyJs = await rankFiles(repo(), { text: 'pageWindow', languages: ['javascript'] });
    expect(onlyJs.every((r) => r.file.endsWith('.js'))).toBe(true);
    const globbed = await rankFiles(repo(), { text: 'pageWindow', globs: ['!src/orders/**'] });
    expect(globbed.map((r) => r.file)).not.toContain('src/orders/pagination.ts');
    const capped = await searchCode(repo(), { text: 'pageWindow filler', maxBytes: 2_048, limit: 10 });
    const big = capped.find((c) => c.file === 'src/big.ts');
    expect(big && Buffer.byteLength(big.content)).toBeLessThanOrEqual(2_048);
    expect(big?.content.endsWith('\n')).toBe(true);
  });
});

describe('locate command', () => {
  async function locate(args: string[], stdin: string): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const sink = (append: (s: string) => void) => new Writable({ write(chunk, _enc, done) { append(String(chunk)); done(); } });
    const code = await locateCommand.run(args, { stdin: Readable.from([stdin]), stdout: sink((s) => (out += s)), stderr: sink((s) => (err += s)), env: {} });
    return { code, out, err };
  }

  it('prints ranked JSON lines relative to REPO_DIR, best first', async () => {
    const { code, out } = await locate([root], "TypeError: Cannot read properties of undefined (reading 'authorizationId')\n    at toAuthorization (/usr/src/app/src/payments/payment-client.ts:2:23)\n");
    expect(code).toBe(0);
    const lines = out.trim().split('\n').map((l) => JSON.parse(l) as { file: string; score: number });
    expect(lines[0]?.file).toBe('src/payments/payment-client.ts');
    expect(lines.every((l, i) => i === 0 || l.score <= lines[i - 1]!.score)).toBe(true);
  });

  it('explains its usage on bad input', async () => {
    expect((await locate([], 'x')).code).toBe(2);
    expect((await locate([join(root, 'nope')], 'x')).err).toContain('not a directory');
    expect((await locate([root], '  ')).err).toContain('standard input');
  });
});
