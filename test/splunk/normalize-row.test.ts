import { describe, expect, it } from 'vitest';
import { normalizeRow, severityOfRow } from '../../src/adapters/splunk/normalize-row.js';
import { parseSplunkTime } from '../../src/adapters/splunk/parse-splunk-time.js';
import { ErrorEvent } from '../../src/domain/event.js';
import { buildErrorRow, T0 } from './support/fixtures.js';

const OPTIONS = { correlationFields: ['txn_id', 'orderNumber', 'requestId'], sessionFields: ['sessionId', 'session_id'], serviceFields: ['service', 'app', 'sourcetype', 'host'] };

describe('normalizing a Splunk result', () => {
  it.each([
    ['ISO with offset', '2026-11-30T11:00:00.123+01:00', '2026-11-30T10:00:00.123Z'],
    ['ISO Z', '2026-11-30T10:00:00Z', '2026-11-30T10:00:00.000Z'],
    ['epoch seconds with fraction', '1796032800.123', '2026-11-30T10:00:00.123Z'],
    ['spaced UTC', '2026-11-30 10:00:00.123 UTC', '2026-11-30T10:00:00.123Z'],
    ['spaced GMT', '2026-11-30 10:00:00.000 GMT', '2026-11-30T10:00:00.000Z'],
    ['spaced offset', '2026-11-30 11:00:00 +0100', '2026-11-30T10:00:00.000Z'],
  ])('reads _time as %s', (_name, value, iso) => {
    expect(parseSplunkTime(value)).toBe(iso);
  });

  it.each([['a local time without zone', '2026-11-30 10:00:00'], ['garbage', 'yesterday'], ['a number', 42 as unknown as string]])('refuses %s', (_name, value) => {
    expect(parseSplunkTime(value)).toBeUndefined();
  });

  it.each([
    [{ level: 'ERROR' }, 'error'],
    [{ level: 'FATAL' }, 'critical'],
    [{ severity: 'warn' }, 'warning'],
    [{ level: 'INFO', status: '503' }, 'error'],
    [{ status: 'ERROR' }, 'error'],
    [{}, 'error'],
  ])('maps severity %j to %s', (fields, severity) => {
    expect(severityOfRow(fields)).toBe(severity);
  });

  it('keeps a multi-line _raw whole, extracts ids, service and session, and passes the domain schema', () => {
    const row = { ...buildErrorRow({ n: 7, indexTime: T0, session: 'S-7' }), orderNumber: ['O-1', 'O-2'], requestId: 'R-1' };
    const result = normalizeRow(row, OPTIONS);
    if (!result.ok) throw new Error(result.reason);
    expect(ErrorEvent.parse(result.value)).toEqual(result.value);
    expect(result.value).toMatchObject({
      id: 'splunk:main:26:7', source: 'splunk', service: 'checkout', severity: 'error', sessionId: 'S-7',
      correlationIds: { txn_id: 'txn-7', orderNumber: 'O-1', requestId: 'R-1' },
      message: 'Payment declined by the gateway',
    });
    expect(result.value.raw.split('\n')).toHaveLength(4);
    expect(result.value.fields.orderNumber).toBe('O-1, O-2');
    expect(result.indexTime).toBe(T0);
  });

  it('takes the service from the first configured field present and the message from the first line', () => {
    const { service: _s, message: _m, ...row } = buildErrorRow({ n: 1, indexTime: T0 });
    const result = normalizeRow(row, OPTIONS);
    expect(result.ok && [result.value.service, result.value.message]).toEqual(['medic:app', String(row._raw).split('\n')[0]]);
  });

  it('uses a configured guid field as identity when there is one', () => {
    const row = { ...buildErrorRow({ n: 1, indexTime: T0 }), event_guid: 'a1b2' };
    expect(normalizeRow(row, { ...OPTIONS, idField: 'event_guid' }).id).toBe('splunk:a1b2');
  });

  it('caps an oversized event with a marker', () => {
    const row = { ...buildErrorRow({ n: 1, indexTime: T0 }), _raw: `boom\n${'x'.repeat(100_000)}`, message: 'm'.repeat(20_000) };
    const result = normalizeRow(row, OPTIONS);
    if (!result.ok) throw new Error(result.reason);
    expect(result.value.raw.length).toBeLessThanOrEqual(32_768);
    expect(result.value.raw).toMatch(/…\[truncated \d+ chars\]$/);
    expect(result.value.message).toMatch(/…\[truncated \d+ chars\]$/);
  });
});
