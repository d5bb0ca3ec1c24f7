import { describe, expect, it } from 'vitest';
import { createMemoryRepository } from '../../src/code-search/memory-repository.js';
import { rankFiles } from '../../src/code-search/search-code.js';

const repoOf = (files: string[]) => createMemoryRepository(Object.fromEntries(files.map((f) => [f, ''])));
const top = async (files: string[], text: string) => (await rankFiles(repoOf(files), { text })).map((r) => r.file);

describe('ranking: tests and libraries', () => {
  it('ranks the file that threw, never the test that called it', async () => {
    const files = ['src/main/java/org/acme/parser/Parser.java', 'src/main/java/org/acme/parser/Lexer.java', 'src/test/java/org/acme/parser/ParserTest.java'];
    const ranked = await top(files, [
      'java.lang.NullPointerException',
      '\tat org.acme.parser.Parser.parse(Parser.java:84)',
      '\tat org.acme.parser.ParserTest.parsesEmpty(ParserTest.java:45)',
      '\tat sun.reflect.NativeMethodAccessorImpl.invoke0(Native Method)',
      '\tat org.junit.runners.ParentRunner.run(ParentRunner.java:309)',
    ].join('\n'));
    expect(ranked[0]).toBe('src/main/java/org/acme/parser/Parser.java');
    expect(ranked).not.toContain('src/test/java/org/acme/parser/ParserTest.java');
  });

  it("names a test's subject when the trace never leaves the test", async () => {
    const files = ['src/shop/cart_total.py', 'src/shop/cart_view.py', 'tests/shop/test_cart_total.py'];
    const ranked = await top(files, 'Traceback (most recent call last):\n  File "/ci/tests/shop/test_cart_total.py", line 9, in test_empty\n    assert total([]) == 0\nTypeError: unsupported operand');
    expect(ranked[0]).toBe('src/shop/cart_total.py');
    expect(ranked).not.toContain('tests/shop/test_cart_total.py');
  });

  it('attributes a frame thrown inside the runtime or a dependency to its first in-project caller', async () => {
    const java = await top(['src/main/java/com/acme/csv/CsvParser.java', 'src/main/java/com/acme/csv/CsvFormat.java'], [
      'java.lang.StringIndexOutOfBoundsException: String index out of range: 14',
      '\tat java.lang.String.charAt(String.java:658)',
      '\tat java.util.HashMap.putMapEntries(HashMap.java:501)',
      '\tat com.acme.csv.CsvParser.headerMap(CsvParser.java:288)',
      '\tat com.acme.csv.CsvFormat.parse(CsvFormat.java:611)',
    ].join('\n'));
    expect(java[0]).toBe('src/main/java/com/acme/csv/CsvParser.java');

    const node = await top(['src/orders/load-orders.ts', 'src/http/routes.ts', 'src/json/parse.ts'], [
      'SyntaxError: Unexpected token } in JSON at position 12',
      '    at JSON.parse (<anonymous>)',
      '    at parse (node:internal/deps/undici/lib/json/parse.js:1:1)',
      '    at Layer.handle (/srv/shop/node_modules/body-parser/lib/json/parse.js:95:5)',
      '    at loadOrders (/srv/shop/src/orders/load-orders.ts:14:20)',
      '    at handle (/srv/shop/src/http/routes.ts:9:3)',
    ].join('\n'));
    // The message's words may still point at src/json, but below every in-project frame.
    expect(node.slice(0, 2)).toEqual(['src/orders/load-orders.ts', 'src/http/routes.ts']);

    const python = await top(['shop/orders.py', 'shop/json/decoder.py'], [
      'Traceback (most recent call last):',
      '  File "/srv/app/shop/orders.py", line 12, in load',
      '  File "/usr/lib/python3.12/json/decoder.py", line 337, in decode',
      'json.decoder.JSONDecodeError: Expecting value',
    ].join('\n'));
    expect(python[0]).toBe('shop/orders.py');
  });

  it('blames the caller when the innermost frame rejected its argument', async () => {
    const ranked = await top(['src/main/java/org/acme/data/Range.java', 'src/main/java/org/acme/layout/BorderLayout.java'], [
      'java.lang.IllegalArgumentException: Range(double, double): require lower (0.0) <= upper (-2.3).',
      '\tat org.acme.data.Range.<init>(Range.java:87)',
      '\tat org.acme.layout.BorderLayout.arrange(BorderLayout.java:454)',
    ].join('\n'));
    expect(ranked[0]).toBe('src/main/java/org/acme/layout/BorderLayout.java');
    const viaValidate = await top(['src/main/java/org/acme/util/Validate.java', 'src/main/java/org/acme/math/Fraction.java'], [
      'org.acme.exception.MathIllegalArgumentException: denominator must not be zero',
      '\tat org.acme.util.Validate.isTrue(Validate.java:20)',
      '\tat org.acme.math.Fraction.of(Fraction.java:88)',
    ].join('\n'));
    expect(viaValidate[0]).toBe('src/main/java/org/acme/math/Fraction.java');
  });
});

describe('ranking: repository layouts', () => {
  it('tells modules of a Maven/Gradle multi-module build apart by package', async () => {
    const files = ['billing/src/main/java/com/acme/billing/Invoice.java', 'shipping/src/main/java/com/acme/shipping/Invoice.java', 'app/src/main/kotlin/com/acme/app/Checkout.kt'];
    expect((await top(files, 'java.lang.ArithmeticException: / by zero\n\tat com.acme.billing.Invoice.total(Invoice.java:10)\n\tat com.acme.app.Checkout.run(Checkout.kt:4)'))[0]).toBe('billing/src/main/java/com/acme/billing/Invoice.java');
  });

  it('maps Python packages under src/ or the root, installed or not', async () => {
    const files = ['src/acme_shop/orders.py', 'src/acme_shop/api.py'];
    expect((await top(files, 'Traceback (most recent call last):\n  File "/opt/venv/lib/python3.12/site-packages/acme_shop/api.py", line 3, in get\n  File "/opt/venv/lib/python3.12/site-packages/acme_shop/orders.py", line 8, in load\nKeyError: \'id\''))[0]).toBe('src/acme_shop/orders.py');
    expect((await top(['acme_shop/orders.py'], 'Traceback (most recent call last):\n  File "/srv/app/acme_shop/orders.py", line 8, in load\nKeyError: \'id\''))[0]).toBe('acme_shop/orders.py');
    // A dependency that merely shares a file name with the project stays a dependency.
    expect(await top(['src/acme_shop/models.py'], 'Traceback (most recent call last):\n  File "/opt/venv/lib/python3.12/site-packages/requests/models.py", line 8, in json\nValueError: x')).not.toContain('src/acme_shop/models.py');
  });

  it('maps Go module paths, with or without -trimpath, and leaves the module cache out', async () => {
    const files = ['internal/orders/pager.go', 'cmd/shop/main.go', 'internal/db/conn.go'];
    const ranked = await top(files, [
      'panic: runtime error: index out of range [5] with length 4',
      '',
      'goroutine 1 [running]:',
      'github.com/acme/shop/internal/orders.(*Pager).Page(...)',
      '\tgithub.com/acme/shop/internal/orders/pager.go:42 +0x1d',
      'github.com/lib/pq.(*conn).query(...)',
      '\t/go/pkg/mod/github.com/lib/pq@v1.10.9/db/conn.go:7 +0x1',
      'main.main()',
      '\t/home/runner/work/shop/cmd/shop/main.go:12 +0x25',
    ].join('\n'));
    expect(ranked[0]).toBe('internal/orders/pager.go');
    expect(ranked).not.toContain('internal/db/conn.go');
  });

  it('maps .NET frames without symbols through their namespace onto dotted project folders', async () => {
    const files = ['src/Acme.Shop.Checkout/Cart.cs', 'src/Acme.Shop.Orders/Cart.cs'];
    const ranked = await top(files, 'System.NullReferenceException: Object reference not set to an instance of an object.\n   at Acme.Shop.Checkout.Cart.Total(Decimal discount)\n   at System.Linq.Enumerable.Sum(IEnumerable`1 source)');
    expect(ranked[0]).toBe('src/Acme.Shop.Checkout/Cart.cs');
  });

  it('maps TypeScript path aliases and bundler prefixes', async () => {
    const files = ['src/lib/money.ts', 'src/app/orders/page.tsx'];
    expect((await top(files, "TypeError: x is undefined\n    at toCents (@/lib/money.ts:3:5)\n    at Page (webpack-internal:///(rsc)/./src/app/orders/page.tsx:12:5)"))).toEqual(['src/lib/money.ts', 'src/app/orders/page.tsx']);
  });

  it("maps a monorepo's workspace packages installed under node_modules, not other dependencies", async () => {
    const files = ['packages/billing/src/invoice.ts', 'apps/web/src/router/index.ts'];
    const ranked = await top(files, [
      'TypeError: Cannot read properties of undefined (reading \'total\')',
      '    at Layer.handle (/app/node_modules/express/lib/router/index.js:95:5)',
      '    at totalOf (/app/node_modules/@acme/billing/dist/invoice.js:10:3)',
    ].join('\n'));
    expect(ranked[0]).toBe('packages/billing/src/invoice.ts');
    expect(ranked).not.toContain('apps/web/src/router/index.ts');
  });

  it('reads a trace that only passes through an installed copy of the package as the project itself', async () => {
    const files = ['lib/cli.js', 'lib/config.js', 'bin/run.js', 'lib/format.js'];
    const ranked = await top(files, [
      "TypeError: Cannot read properties of undefined (reading 'name')",
      '    at loadConfig (/usr/local/lib/node_modules/acme-cli/lib/config.js:14:22)',
      '    at Object.<anonymous> (/usr/local/lib/node_modules/acme-cli/bin/run.js:3:1)',
      '    at Module._compile (node:internal/modules/cjs/loader:1241:14)',
    ].join('\n'));
    expect(ranked.slice(0, 2)).toEqual(['lib/config.js', 'bin/run.js']);
  });

  it("ranks a Node project's bin/ entry script, never its built copy", async () => {
    const ranked = await top(['bin/cli.js', 'dist/cli.js', 'lib/run.js'], 'TypeError: z\n    at main (/srv/tool/bin/cli.js:7:3)\n    at run (/srv/tool/lib/run.js:2:1)');
    expect(ranked[0]).toBe('bin/cli.js');
    expect(ranked).not.toContain('dist/cli.js');
  });

  it('keeps a dependency out when a frame of the project exists, and never maps a file by its name alone', async () => {
    const files = ['src/app.js', 'lib/router/index.js', 'src/main.js'];
    const withOwnFrame = await top(files, [
      'TypeError: x is not a function',
      '    at Layer.handle (/srv/node_modules/express/lib/router/index.js:95:5)',
      '    at start (/srv/src/app.js:4:3)',
    ].join('\n'));
    expect(withOwnFrame[0]).toBe('src/app.js');
    expect(withOwnFrame).not.toContain('lib/router/index.js');
    const bareName = await top(files, 'TypeError: y\n    at Request.callback (/srv/node_modules/request/main.js:108:22)');
    expect(bareName).not.toContain('src/main.js');
  });
});

describe('ranking: chained causes', () => {
  it('weighs the root cause of a Java chain most', async () => {
    const ranked = await top(['src/main/java/com/acme/api/Controller.java', 'src/main/java/com/acme/store/Repository.java'], [
      'com.acme.api.ApiException: request failed',
      '\tat com.acme.api.Controller.handle(Controller.java:31)',
      'Caused by: java.lang.NullPointerException',
      '\tat com.acme.store.Repository.find(Repository.java:12)',
      '\t... 12 more',
    ].join('\n'));
    expect(ranked).toEqual(['src/main/java/com/acme/store/Repository.java', 'src/main/java/com/acme/api/Controller.java']);
  });

  it("weighs the first of Python's chained tracebacks most, for both chain wordings", async () => {
    for (const joint of ['During handling of the above exception, another exception occurred:', 'The above exception was the direct cause of the following exception:']) {
      const ranked = await top(['shop/pagination.py', 'shop/routes.py'], [
        'Traceback (most recent call last):',
        '  File "/srv/shop/pagination.py", line 40, in window',
        'IndexError: page index out of range',
        '',
        joint,
        '',
        'Traceback (most recent call last):',
        '  File "/srv/shop/routes.py", line 8, in handle',
        'shop.errors.HttpError: 500',
      ].join('\n'));
      expect(ranked[0], joint).toBe('shop/pagination.py');
    }
  });

  it('puts the .NET inner exception first', async () => {
    const ranked = await top(['src/Shop/Api/OrdersController.cs', 'src/Shop/Data/OrderStore.cs'], [
      'System.InvalidOperationException: Loading failed ---> System.NullReferenceException: Object reference not set to an instance of an object.',
      '   at Shop.Data.OrderStore.Find(String key) in /src/Shop/Data/OrderStore.cs:line 20',
      '   --- End of inner exception stack trace ---',
      '   at Shop.Api.OrdersController.Get(String id) in /src/Shop/Api/OrdersController.cs:line 14',
    ].join('\n'));
    expect(ranked[0]).toBe('src/Shop/Data/OrderStore.cs');
  });

  it('reads the panicking goroutine before the others of a Go dump', async () => {
    const ranked = await top(['internal/orders/pager.go', 'internal/jobs/worker.go'], [
      'panic: boom',
      '',
      'goroutine 7 [running]:',
      'acme/internal/orders.Page()',
      '\t/src/internal/orders/pager.go:42 +0x1d',
      '',
      'goroutine 1 [chan receive]:',
      'acme/internal/jobs.Wait()',
      '\t/src/internal/jobs/worker.go:9 +0x1',
    ].join('\n'));
    expect(ranked[0]).toBe('internal/orders/pager.go');
  });
});
