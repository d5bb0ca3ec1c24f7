/**
 * Records as the common JSON loggers write them, each in the shape of its project's documented
 * output (the source is named beside each), with a real crash trace in its stack field.
 */
import { describe, expect, it } from 'vitest';
import { parseJsonRecord, serviceOfFile } from '../../src/adapters/file-logs/parse-entry.js';
import { eventTrace } from '../../src/domain/event-trace.js';

const JS_STACK = "TypeError: Cannot read properties of undefined (reading 'id')\n    at toUser (/srv/api/src/users/map-user.js:14:22)\n    at Array.map (<anonymous>)\n    at listUsers (/srv/api/src/users/routes.js:31:18)";
const PY_TRACE = 'Traceback (most recent call last):\n  File "/usr/src/app/beets/library.py", line 361, in _awaken\n    obj = cls(lib)\n  File "/usr/src/app/beets/dbcore/db.py", line 292, in __init__\n    self._types = lib._types\nAttributeError: \'NoneType\' object has no attribute \'_types\'';
const JAVA_TRACE = 'java.lang.IllegalStateException: Connection pool shut down\n\tat org.apache.http.util.Asserts.check(Asserts.java:34)\n\tat com.acme.billing.InvoiceClient.send(InvoiceClient.java:88)\n\tat com.acme.billing.InvoiceJob.run(InvoiceJob.java:41)';
const DOTNET_TRACE = 'System.InvalidOperationException: Sequence contains no elements\n   at System.Linq.ThrowHelper.ThrowNoElementsException()\n   at Acme.Orders.OrderService.Latest(Int32 customerId) in /src/Acme.Orders/OrderService.cs:line 57';

const cases: { logger: string; line: Record<string, unknown>; level: string; service: string; message: string; file: string }[] = [
  {
    // pino: numeric level, `msg`, the error serialized under `err` (pino's stdSerializers.err).
    logger: 'pino',
    line: { level: 50, time: 1764500000123, pid: 657, hostname: 'api-1', name: 'users', err: { type: 'TypeError', message: "Cannot read properties of undefined (reading 'id')", stack: JS_STACK }, msg: "Cannot read properties of undefined (reading 'id')" },
    level: 'ERROR', service: 'api', message: "Cannot read properties of undefined (reading 'id')", file: 'src/users/map-user.js',
  },
  {
    // bunyan: `name` is the logger's, `v` the format version, `err.stack` as pino.
    logger: 'bunyan',
    line: { name: 'myapp', hostname: 'banana.local', pid: 40161, level: 60, msg: 'request failed', time: '2026-11-30T08:00:01.000Z', v: 0, err: { message: 'x', name: 'TypeError', stack: JS_STACK } },
    level: 'FATAL', service: 'api', message: 'request failed', file: 'src/users/map-user.js',
  },
  {
    // python-json-logger with logger.exception(): `asctime`, `levelname`, `name`, `exc_info`.
    logger: 'python-json-logger',
    line: { asctime: '2026-11-30 08:00:02,345', levelname: 'ERROR', name: 'beets.library', message: 'error loading item', exc_info: PY_TRACE },
    level: 'ERROR', service: 'api', message: 'error loading item', file: 'beets/dbcore/db.py',
  },
  {
    // logstash-logback-encoder: `@timestamp`, `logger_name`, `level_value`, `stack_trace`.
    logger: 'logstash-logback-encoder',
    line: { '@timestamp': '2026-11-30T09:15:30.123+01:00', '@version': '1', message: 'invoice send failed', logger_name: 'com.acme.billing.InvoiceJob', thread_name: 'main', level: 'ERROR', level_value: 40000, stack_trace: JAVA_TRACE },
    level: 'ERROR', service: 'api', message: 'invoice send failed', file: 'com/acme/billing/InvoiceClient.java',
  },
  {
    // Elastic Common Schema (ecs-logging): dotted `log.level`, `service.name`, nested `error.stack_trace`.
    logger: 'ECS',
    line: { '@timestamp': '2026-11-30T08:00:04.000Z', 'log.level': 'error', message: 'invoice send failed', 'ecs.version': '1.6.0', 'service.name': 'billing', log: { logger: 'com.acme.billing.InvoiceJob' }, error: { type: 'java.lang.IllegalStateException', message: 'Connection pool shut down', stack_trace: JAVA_TRACE } },
    level: 'ERROR', service: 'billing', message: 'invoice send failed', file: 'com/acme/billing/InvoiceClient.java',
  },
  {
    // OpenTelemetry log record (OTLP JSON, flattened by a collector's file exporter).
    logger: 'OpenTelemetry',
    line: { timeUnixNano: '1764489605000000000', severityText: 'ERROR', body: 'unhandled exception', resource: { 'service.name': 'orders' }, attributes: { 'exception.type': 'System.InvalidOperationException', 'exception.stacktrace': DOTNET_TRACE } },
    level: 'ERROR', service: 'orders', message: 'unhandled exception', file: 'Acme.Orders/OrderService.cs',
  },
  {
    // Serilog's compact format (CLEF): `@t`, `@l`, `@mt`, `@x`.
    logger: 'Serilog CLEF',
    line: { '@t': '2026-11-30T08:00:06.8532799Z', '@mt': 'Latest order for {CustomerId} failed', '@l': 'Error', '@x': DOTNET_TRACE, CustomerId: 42, SourceContext: 'Acme.Orders.OrderService' },
    level: 'ERROR', service: 'api', message: 'Latest order for {CustomerId} failed', file: 'Acme.Orders/OrderService.cs',
  },
];

describe('JSON records as the common loggers write them', () => {
  for (const c of cases) {
    it(`reads ${c.logger}: time, level, message, service, and the stack from its own field`, () => {
      const record = parseJsonRecord(JSON.stringify(c.line), 'api.jsonl@0', [], 'api');
      expect(record, c.logger).toBeDefined();
      expect(record!.level).toBe(c.level);
      expect(record!.service).toBe(c.service);
      expect(record!.message).toBe(c.message);
      expect(Number.isNaN(Date.parse(record!.time))).toBe(false);
      const trace = eventTrace({ raw: record!.raw, message: record!.message });
      expect(trace.frames.some((f) => f.file.endsWith(c.file)), JSON.stringify(trace.frames)).toBe(true);
    });
  }

  it('never takes a logger name for the service: without a service field the file names it', () => {
    const record = parseJsonRecord(JSON.stringify({ time: '2026-11-30T08:00:00.000Z', level: 'error', logger: 'org.hibernate.SQL', host: 'db-7', message: 'boom' }), 'x@0', [], serviceOfFile('logs/billing-api.jsonl.1'));
    expect(record!.service).toBe('billing-api');
    expect(record!.fields.logger).toBe('org.hibernate.SQL');
  });

  it('keeps nested fields as dotted names, so correlation ids inside objects still correlate', () => {
    const record = parseJsonRecord(JSON.stringify({ time: '2026-11-30T08:00:00.000Z', level: 'error', message: 'boom', trace: { id: 'abc123' }, http: { request: { method: 'POST' } } }), 'x@0', ['trace.id']);
    expect(record!.fields['http.request.method']).toBe('POST');
    expect(record!.correlationIds).toEqual({ 'trace.id': 'abc123' });
  });

  it('names a chained Python traceback after the exception that was logged, the outermost', () => {
    const chained = `${PY_TRACE}\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File "/usr/src/app/beets/ui/commands.py", line 1070, in list_items\n    raise ui.UserError(str(exc))\nbeets.ui.UserError: could not read item`;
    const record = parseJsonRecord(JSON.stringify({ asctime: '2026-11-30 08:00:02,345', levelname: 'ERROR', message: 'list failed', exc_info: chained }), 'x@0', []);
    const trace = eventTrace({ raw: record!.raw, message: record!.message });
    expect(trace.exceptionType).toBe('UserError');
    expect(trace.exceptions.map((e) => e.exceptionType)).toEqual(['AttributeError', 'UserError']);
  });
});
