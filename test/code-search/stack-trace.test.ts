import { describe, expect, it } from 'vitest';
import { parseStackTrace } from '../../src/domain/stack-trace.js';

describe('parseStackTrace', () => {
  it('reads Node/TypeScript frames, including constructors, async, aliases and file URLs', () => {
    const trace = parseStackTrace(
      [
        "TypeError: Cannot read properties of null (reading 'authorizationId')",
        '    at new ShopError (/srv/shop/src/shared/errors.ts:5:5)',
        '    at toAuthorization (/srv/shop/src/payments/payment-client.ts:52:41)',
        '    at async PaymentClient.authorize [as run] (file:///app/dist/payments/payment-client.js:70:20)',
        '    at /usr/src/app/src/main.ts:3:1',
        '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
        '    at Layer.handle (/srv/shop/node_modules/express/lib/router/layer.js:95:5)',
      ].join('\n'),
    );
    expect(trace.exceptionType).toBe('TypeError');
    expect(trace.message).toBe("Cannot read properties of null (reading 'authorizationId')");
    expect(trace.frames.map((f) => [f.file, f.fn, f.line, f.inApp])).toEqual([
      ['/srv/shop/src/shared/errors.ts', 'new ShopError', 5, true],
      ['/srv/shop/src/payments/payment-client.ts', 'toAuthorization', 52, true],
      ['/app/dist/payments/payment-client.js', 'PaymentClient.authorize', 70, true],
      ['/usr/src/app/src/main.ts', undefined, 3, true],
      ['node:internal/process/task_queues', 'process.processTicksAndRejections', 95, false],
      ['/srv/shop/node_modules/express/lib/router/layer.js', 'Layer.handle', 95, false],
    ]);
  });

  it('reverses a Python traceback so the innermost frame comes first, names a chain after the exception logged, and keeps the original as its root cause', () => {
    const trace = parseStackTrace(
      [
        'Traceback (most recent call last):',
        '  File "/usr/src/app/shop/orders/service.py", line 12, in list_orders',
        '    page = page_window(request, total)',
        '  File "/usr/src/app/shop/orders/pagination.py", line 40, in page_window',
        '    raise IndexError("page index out of range")',
        'IndexError: page index out of range',
        '',
        'During handling of the above exception, another exception occurred:',
        '',
        'Traceback (most recent call last):',
        '  File "/usr/src/app/shop/http/routes.py", line 8, in handle',
        '  File "/usr/local/lib/python3.12/site-packages/flask/app.py", line 1, in wsgi',
        'shop.errors.HttpError: 500',
      ].join('\n'),
    );
    // Python prints the exception that was raised last (and logged) at the end of the chain.
    expect(trace.exceptionType).toBe('HttpError');
    expect(trace.rootCause?.exceptionType).toBe('IndexError');
    expect(trace.frames.map((f) => `${f.fn}:${f.inApp}`)).toEqual(['page_window:true', 'list_orders:true', 'wsgi:false', 'handle:true']);
  });

  it('puts the deepest Java cause first and maps classes to package paths', () => {
    const trace = parseStackTrace(
      [
        'Exception in thread "main" com.shop.api.ApiException: checkout failed',
        '\tat com.shop.api.CheckoutController.post(CheckoutController.java:31)',
        '\tat org.springframework.web.servlet.FrameworkServlet.service(FrameworkServlet.java:897)',
        'Caused by: java.lang.ArithmeticException: / by zero',
        '\tat com.shop.checkout.Discounts.spread(Discounts.kt:44)',
        '\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1541)',
        '\t... 12 more',
      ].join('\n'),
    );
    expect(trace.exceptionType).toBe('ApiException');
    expect(trace.frames.map((f) => [f.file, f.fn, f.inApp])).toEqual([
      ['com/shop/checkout/Discounts.kt', 'spread', true],
      ['java/util/ArrayList.java', 'forEach', false],
      ['com/shop/api/CheckoutController.java', 'post', true],
      ['org/springframework/web/servlet/FrameworkServlet.java', 'service', false],
    ]);
  });

  it('reads .NET frames with Windows paths and async state machines', () => {
    const trace = parseStackTrace(
      [
        'System.DivideByZeroException: Attempted to divide by zero.',
        '   at Shop.Checkout.Discounts.Spread(Int32 amount, Int32 count) in C:\\build\\src\\Shop\\Checkout\\Discounts.cs:line 42',
        '   at Shop.Checkout.CartTotal.<ComputeAsync>d__4.MoveNext() in /src/Shop/Checkout/CartTotal.cs:line 17',
        '   at System.Runtime.CompilerServices.TaskAwaiter.ThrowForNonSuccess(Task task)',
        '   at Microsoft.AspNetCore.Mvc.Infrastructure.ActionMethodExecutor.Execute(Object x) in D:\\a\\_work\\Mvc.cs:line 9',
      ].join('\n'),
    );
    expect(trace.exceptionType).toBe('DivideByZeroException');
    expect(trace.frames.map((f) => [f.file, f.fn, f.line, f.inApp])).toEqual([
      ['C:\\build\\src\\Shop\\Checkout\\Discounts.cs', 'Spread', 42, true],
      ['/src/Shop/Checkout/CartTotal.cs', 'ComputeAsync', 17, true],
      ['System/Runtime/CompilerServices/TaskAwaiter.cs', 'ThrowForNonSuccess', undefined, false],
      ['D:\\a\\_work\\Mvc.cs', 'Execute', 9, false],
    ]);
  });

  it('reads Go panics with the function from the line above, and Ruby and PHP frames', () => {
    const go = parseStackTrace(
      [
        'panic: runtime error: integer divide by zero',
        '',
        'goroutine 1 [running]:',
        'github.com/acme/shop/internal/checkout.(*Discounts).Spread(0xc000012345, 0x0)',
        '\t/home/runner/work/shop/internal/checkout/discounts.go:44 +0x1d',
        'runtime.goexit()',
        '\t/usr/local/go/src/runtime/asm_amd64.s:1650 +0x1',
        'main.main()',
        '\t/home/runner/work/shop/cmd/shop/main.go:12 +0x25',
      ].join('\n'),
    );
    expect(go.exceptionType).toBe('panic');
    expect(go.frames.map((f) => [f.file, f.fn, f.inApp])).toEqual([
      ['/home/runner/work/shop/internal/checkout/discounts.go', 'Spread', true],
      ['/home/runner/work/shop/cmd/shop/main.go', 'main', true],
    ]);

    const ruby = parseStackTrace("/app/lib/shop/discounts.rb:44:in 'Shop::Discounts#spread': divided by 0 (ZeroDivisionError)\n\tfrom /usr/local/bundle/gems/rack-3.0/lib/rack.rb:3:in `call'\n\tfrom /app/app/controllers/checkout_controller.rb:9:in `block in create'");
    expect(ruby.exceptionType).toBe('ZeroDivisionError');
    expect(ruby.frames.map((f) => [f.file, f.fn, f.inApp])).toEqual([
      ['/app/lib/shop/discounts.rb', 'spread', true],
      ['/usr/local/bundle/gems/rack-3.0/lib/rack.rb', 'call', false],
      ['/app/app/controllers/checkout_controller.rb', 'create', true],
    ]);

    const php = parseStackTrace("PHP Fatal error:  Uncaught DivisionByZeroError: Division by zero in /var/www/src/Checkout/Discounts.php:44\nStack trace:\n#0 /var/www/src/Checkout/CartTotal.php(17): Shop\\Checkout\\Discounts->spread()\n#1 {main}");
    expect(php.frames.map((f) => [f.file, f.fn])).toEqual([
      ['/var/www/src/Checkout/Discounts.php', undefined],
      ['/var/www/src/Checkout/CartTotal.php', 'spread'],
    ]);
  });

  it('splits a trace stored as one JSON-escaped line, and tolerates noise', () => {
    expect(parseStackTrace('RangeError: page index 3 out of range\\n    at pageWindow (/srv/shop/src/orders/pagination.ts:52:3)').frames[0]?.file).toBe('/srv/shop/src/orders/pagination.ts');
    expect(parseStackTrace('just a message, no trace at all')).toEqual({ exceptionType: undefined, message: undefined, rootCause: undefined, exceptions: [], frames: [] });
    expect(parseStackTrace('x'.repeat(5_000)).frames).toEqual([]);
  });
});
