/**
 * The trace shape key lets a storm parse each trace shape once: texts with one key must read as
 * the same exceptions and frames. Checked on real crash traces (Defects4J and public bug reports)
 * and on the polyglot localization traces, with their line numbers and first-line messages
 * changed, and on pairs across all of them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fingerprintEvent } from '../../src/domain/fingerprint.js';
import { eventTrace } from '../../src/domain/event-trace.js';
import { shortHash } from '../../src/domain/hash.js';
import { parseStackTrace, traceShapeKey } from '../../src/domain/stack-trace.js';
import { topInAppFrames } from '../../src/domain/top-frames.js';
import { buildEvent } from '../support/builders.js';
import { seeded } from '../support/storm-events.js';

const traces: string[] = [
  ...(JSON.parse(readFileSync('bench/fixtures/localization/real/cases.json', 'utf8')) as { cases: { trace: string }[] }).cases.map((c) => c.trace),
  ...(JSON.parse(readFileSync('bench/fixtures/localization/cases.json', 'utf8')) as { cases: { trace: string }[] }).cases.map((c) => c.trace),
  // Dialects whose positions are not at the end of the line, and a one-line escaped trace.
  'Traceback (most recent call last):\n  File "/srv/app/payments/client.py", line 42, in charge\n    raise ValueError("bad 12")\nValueError: bad 12',
  'goroutine 1 [running]:\nmain.main()\n\t/srv/app/cmd/main.go:12 +0x1d\n',
  '/srv/app/lib/cart.rb:12:in `total\': undefined method (NoMethodError)\n\tfrom app/models/order.rb:3:in \'Order#total\'',
  'TypeError: x is undefined\\n    at total (/srv/app/src/cart.ts:10:5)\\n    at /srv/app/src/index.ts:3:1',
];

/** What a family's scope is made of: the trace as read, but for line numbers and messages. */
const shape = (raw: string) => {
  const trace = parseStackTrace(raw);
  return {
    exceptionType: trace.exceptionType,
    exceptions: trace.exceptions.map((e) => e.exceptionType),
    frames: trace.frames.map((f) => [f.file, f.fn, f.inApp, f.language, f.module]),
  };
};

/** The trace moved by a redeploy and its first line's numbers changed: same shape, new text. */
function variant(raw: string, rand: () => number): string {
  const lines = raw.split('\n');
  const n = () => String(1 + Math.floor(rand() * 9_999));
  const moved = (line: string) => line.replace(/:\d+(?::\d+)?\)?\s*$/, (tail) => tail.replace(/\d+/g, n));
  // The first line's message (after its first ': ') carries the ids and numbers of one event; a
  // path in it (PHP's `Uncaught … in /srv/app/x.php:12`) is a frame, not the event's.
  const message = (line: string) =>
    line.replace(/(: )(.*)$/, (_all, sep: string, text: string) => sep + text.split(/(\S*[/\\]\S*)/).map((part, i) => (i % 2 === 1 ? part : part.replace(/\d+/g, n))).join(''));
  return lines.map((line, i) => (i === 0 ? message(moved(line)) : moved(line))).join('\n');
}

describe('trace shape key', () => {
  const rand = seeded(11);

  it('is the same for a trace whose line numbers and first-line numbers changed, and so is its shape', () => {
    expect(traces.length).toBeGreaterThan(60);
    for (const raw of traces) {
      for (let k = 0; k < 3; k++) {
        const moved = variant(raw, rand);
        expect(traceShapeKey(moved)).toBe(traceShapeKey(raw));
        expect(shape(moved)).toEqual(shape(raw));
      }
    }
  });

  it('is the same for a log record whose trace repeats each event\'s own message on its exception line', () => {
    const record = (order: number, ip: string, line: number) => [
      `request to http://fraud-svc:8080/score/${order} failed`,
      `FetchError: request to http://fraud-svc:8080/score/${order} failed, reason: connect ECONNREFUSED ${ip}:8080`,
      `    at scoreFraud (/srv/payments/src/fraud/client.ts:${line}:7)`,
      `Caused by: SystemError: connect ECONNREFUSED ${ip}:8080`,
      `    at TCPConnectWrap.afterConnect (node:net:${line + 1}:16)`,
    ].join('\n');
    const a = record(1, '10.0.3.4', 12);
    const b = record(98_765, '10.0.200.17', 340);
    expect(traceShapeKey(b, { recordHeader: true })).toBe(traceShapeKey(a, { recordHeader: true }));
    expect(shape(b)).toEqual(shape(a));
    // A different exception type or frame on those lines is a different key.
    expect(traceShapeKey(a.replace('FetchError', 'AbortError'), { recordHeader: true })).not.toBe(traceShapeKey(a, { recordHeader: true }));
    expect(traceShapeKey(a.replace('scoreFraud', 'scoreRisk'), { recordHeader: true })).not.toBe(traceShapeKey(a, { recordHeader: true }));
  });

  it('never joins two texts whose traces differ: equal keys mean equal shapes, across every pair', () => {
    const all = traces.flatMap((raw) => [raw, variant(raw, rand), raw.replace(/\.(java|py|ts|js|go|kt|cs|php|rb)\b/, '_other.$1')]);
    const byKey = new Map<string, ReturnType<typeof shape>>();
    let distinct = 0;
    for (const raw of all) {
      const key = traceShapeKey(raw);
      const known = byKey.get(key);
      if (known) expect(shape(raw)).toEqual(known);
      else {
        byKey.set(key, shape(raw));
        distinct++;
      }
    }
    expect(distinct).toBeGreaterThan(traces.length);
  });

  it('leaves the fingerprint what a fresh parse gives, with the first-seen text of each shape remembered', () => {
    for (const raw of traces) {
      for (const text of [raw, variant(raw, rand)]) {
        const event = buildEvent({ service: 'shop', message: text.split('\n', 1)[0] ?? '', raw: text });
        const trace = eventTrace(event);
        const scope = shortHash(['shop', trace.exceptionType ?? '', ...topInAppFrames(trace)].join('\u0001'));
        expect(fingerprintEvent(event, 'family').scope).toBe(scope);
      }
    }
  });
});
