/**
 * The clue of a log line survives parsing: a plain line's `key=value` fields (logfmt, as Heroku's
 * router, Go's logfmt loggers and the sample gateway write them) and a JSON record's `detail`,
 * `cause`, `reason` and serialized-error fields (pino's `err`, ECS's `error`, structlog) are kept
 * on the line evidence and log windows show, while the message used for grouping stays the words.
 */
import { describe, expect, it } from 'vitest';
import { parseJsonRecord, parsePlainRecord } from '../../src/adapters/file-logs/parse-entry.js';
import { clueFields, evidenceText, formatClue, withClues } from '../../src/domain/log-clues.js';

const AT = '2026-11-30T08:17:40.288Z';

describe('plain lines keep their key=value fields on the evidence line', () => {
  const lines = [
    // The sample gateway's payments path: the decision is the clue.
    [`${AT} INFO [payments] psp answered txn_id=txn_5fa1 orderNumber=SO-061F http_status=200 decision=declined decline_reason=do_not_honor`, 'psp answered', ['decision=declined', 'decline_reason=do_not_honor']],
    // A quoted value with spaces, as logfmt writes it.
    [`${AT} ERROR [gateway] upstream error: 502 Bad Gateway requestId=req-7ede upstream=shop:8080 detail="connect ECONNREFUSED 10.2.0.14:8080" attempt=1`, 'upstream error: 502 Bad Gateway', ['detail="connect ECONNREFUSED 10.2.0.14:8080"', 'attempt=1']],
    // Heroku router's fields (devcenter.heroku.com, "Router" log format), after Medic's header.
    [`${AT} ERROR [router] request timed out at=error code=H12 desc="Request timeout" method=GET path="/checkout" dyno=web.1 connect=0ms service=30000ms status=503`, 'request timed out', ['code=H12', 'desc="Request timeout"', 'status=503']],
  ] as const;

  for (const [line, message, clues] of lines) {
    it(`keeps ${clues.join(', ')}`, () => {
      const record = parsePlainRecord(line, 'gw.log@0', ['txn_id'])!;
      expect(record.message).toBe(message);
      for (const clue of clues) expect(record.evidence).toContain(clue);
      expect(record.raw).toBe(message);
    });
  }

  it('keeps the stack below the first line', () => {
    const record = parsePlainRecord(`${AT} ERROR [payments] request failed: TypeError: boom errorCode=E_INTERNAL status=500\n    at toAuthorization (/srv/shop/src/payments/payment-client.ts:52:41)`, 'gw.log@1', [])!;
    expect(record.evidence).toBe('request failed: TypeError: boom errorCode=E_INTERNAL status=500\n    at toAuthorization (/srv/shop/src/payments/payment-client.ts:52:41)');
  });
});

describe('JSON records keep their clue fields on the evidence line', () => {
  it("pino's serialized err: code, syscall, address and port of a refused connection", () => {
    // pino's stdSerializers.err output for a Node `connect ECONNREFUSED` (getpino.io, "Serializers").
    const line = JSON.stringify({
      level: 50, time: 1764490660288, pid: 7, hostname: 'api-1', msg: 'payment call failed',
      err: { type: 'Error', message: 'connect ECONNREFUSED 10.2.0.14:8080', stack: 'Error: connect ECONNREFUSED 10.2.0.14:8080\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1607:16)', errno: -111, code: 'ECONNREFUSED', syscall: 'connect', address: '10.2.0.14', port: 8080 },
    });
    const record = parseJsonRecord(line, 'api.jsonl@0', [], 'api')!;
    const [first] = record.evidence.split('\n');
    expect(first).toContain('payment call failed');
    expect(first).toContain('err.message="connect ECONNREFUSED 10.2.0.14:8080"');
    expect(first).toContain('err.code=ECONNREFUSED');
    expect(first).toContain('err.address=10.2.0.14');
    expect(record.evidence).toContain('at TCPConnectWrap.afterConnect');
    expect(record.message).toBe('payment call failed');
  });

  it("ECS's error.message and a structlog-style cause, never the message or the stack twice", () => {
    const ecs = parseJsonRecord(JSON.stringify({ '@timestamp': AT, 'log.level': 'error', message: 'invoice send failed', 'service.name': 'billing', error: { type: 'java.net.ConnectException', message: 'Connection refused', stack_trace: 'java.net.ConnectException: Connection refused\n\tat java.base/sun.nio.ch.Net.connect0(Native Method)' } }), 'b.jsonl@0', [])!;
    expect(ecs.evidence.split('\n')[0]).toBe('invoice send failed error.type=java.net.ConnectException error.message="Connection refused"');
    const structlog = parseJsonRecord(JSON.stringify({ timestamp: AT, level: 'error', event: 'order rejected', cause: 'stock reservation expired', order_id: 'o-1' }), 's.jsonl@0', [])!;
    expect(structlog.evidence).toBe('order rejected cause="stock reservation expired"');
    const repeated = parseJsonRecord(JSON.stringify({ time: AT, level: 'error', message: 'timeout talking to psp', reason: 'timeout talking to psp' }), 'r.jsonl@0', [])!;
    expect(repeated.evidence).toBe('timeout talking to psp');
  });

  it('names every field the sample shop log writes as a clue or not', () => {
    const record = parseJsonRecord(JSON.stringify({ time: AT, level: 'WARN', service: 'shop', message: 'payment gateway call failed, retrying', requestId: 'req-9f0d', component: 'payments', attempt: 1, delayMs: 44, reason: 'TimeoutError: The operation was aborted due to timeout' }), 'shop.jsonl@40', [])!;
    expect(record.evidence).toBe('payment gateway call failed, retrying reason="TimeoutError: The operation was aborted due to timeout"');
  });
});

describe('clue formatting', () => {
  it('quotes values with spaces, quotes or newlines, and caps the count', () => {
    expect(formatClue(['detail', 'a "b" c'])).toBe('detail="a \\"b\\" c"');
    expect(formatClue(['detail', 'two\nlines'])).toBe('detail="two ⏎ lines"');
    expect(formatClue(['code', 'H12'])).toBe('code=H12');
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`r${i}_reason`, `v${i}`]));
    expect(clueFields(many)).toHaveLength(8);
    expect(withClues('one\ntwo', [['cause', 'x']])).toBe('one cause=x\ntwo');
  });

  it("gives a recorded event's text its clue fields", () => {
    expect(evidenceText({ message: 'upstream error: 502 Bad Gateway', raw: 'upstream error: 502 Bad Gateway', fields: { requestId: 'req-1', detail: 'connect ECONNREFUSED 10.2.0.14:8080' } }))
      .toBe('upstream error: 502 Bad Gateway detail="connect ECONNREFUSED 10.2.0.14:8080"');
  });
});
