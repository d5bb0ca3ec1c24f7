import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSplunkClient } from '../../src/adapters/splunk/splunk-client.js';
import { ErrorCode, MedicError } from '../../src/domain/errors.js';
import { buildSplunkRow } from '../loopback/splunk-server.js';
import { buildErrorRow, CREDENTIALS, startSplunkFixture, T0, type SplunkFixture } from './support/fixtures.js';
import { parseSearch } from './support/spl-evaluator.js';

const at = (offsetS: number) => new Date((T0 + offsetS) * 1000).toISOString();

function line(n: number, offsetS: number, fields: Record<string, string>) {
  return buildSplunkRow({ cd: `30:${n}`, time: at(offsetS), indexTime: T0 + offsetS, raw: `${at(offsetS)} INFO [checkout] step ${n}`, fields: { level: 'INFO', service: 'checkout', ...fields } });
}

describe('Splunk log window', () => {
  let fx: SplunkFixture;
  beforeEach(async () => {
    fx = await startSplunkFixture();
  });
  afterEach(async () => fx.close());

  async function pollOne(row: ReturnType<typeof buildErrorRow>) {
    fx.server.rows.push(row);
    const { events } = await fx.source.poll(undefined);
    expect(events).toHaveLength(1);
    return events[0]!;
  }

  it('returns the transaction ±5 minutes, same session or none, sorted by time and capped', async () => {
    const event = await pollOne(buildErrorRow({ n: 1, indexTime: T0, time: at(0), txn: 'T-1', session: 'S-1' }));
    fx.server.rows.push(
      line(1, -60, { txn_id: 'T-1', sessionId: 'S-1' }),
      line(2, 30, { txn_id: 'T-1' }),
      line(3, 120, { orderNumber: 'T-1', sessionId: 'S-1' }),
      line(4, 10, { txn_id: 'T-1', sessionId: 'S-2' }),
      line(5, 20, { txn_id: 'T-2', sessionId: 'S-1' }),
      line(6, -600, { txn_id: 'T-1', sessionId: 'S-1' }),
    );
    const window = await fx.source.window({ event, beforeMs: 300_000, afterMs: 300_000, limit: 200 });
    expect(window.map((l) => l.sourceId)).toEqual(['splunk:main:30:1', 'splunk:main:26:1', 'splunk:main:30:2', 'splunk:main:30:3']);
    expect(window[1]?.message).toContain('\n    at charge (src/payment/charge.ts:42:11)');
    expect(fx.server.searches.at(-1)?.search).toMatch(/\| head 200 \| sort 0 _time$/);

    const capped = await fx.source.window({ event, beforeMs: 300_000, afterMs: 300_000, limit: 2 });
    expect(capped).toHaveLength(2);
    expect(capped[0]!.time <= capped[1]!.time).toBe(true);
  });

  it('falls back to the service when the event has no correlation id', async () => {
    const row = buildErrorRow({ n: 1, indexTime: T0, time: at(0) });
    delete row.txn_id;
    const event = await pollOne(row);
    fx.server.rows.push(line(1, 5, {}), line(2, 6, { service: 'ledger' }));
    const window = await fx.source.window({ event, beforeMs: 60_000, afterMs: 60_000, limit: 50 });
    expect(window.map((l) => l.service)).toEqual(['checkout', 'checkout']);
  });

  it('throws a coded error when Splunk refuses the window search', async () => {
    const event = await pollOne(buildErrorRow({ n: 1, indexTime: T0 }));
    fx.server.fault({ kind: 'status', status: 400, body: JSON.stringify({ messages: [{ type: 'FATAL', text: 'bad' }] }) });
    const error = await fx.source.window({ event, beforeMs: 1, afterMs: 1, limit: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MedicError);
    expect((error as MedicError).code).toBe(ErrorCode.UpstreamRejected);
  });

  it.each([
    ['a quote and a pipe', 'x" | delete'],
    ['an unquoted command', 'abc | outputlookup evil.csv'],
    ['escaped quote breakout', 'a\\" OR index=* | delete "'],
    ['backslashes', 'C:\\temp\\'],
    ['a bracketed subsearch', '[search index=_audit | head 1]'],
  ])('SPL injection through a correlation id is inert: %s', async (_name, txn) => {
    const event = await pollOne(buildErrorRow({ n: 1, indexTime: T0, time: at(0), txn, session: `s" | delete` }));
    fx.server.rows.push(line(1, 5, { txn_id: txn, sessionId: `s" | delete` }));
    const window = await fx.source.window({ event, beforeMs: 60_000, afterMs: 60_000, limit: 50 });
    const received = fx.server.searches.at(-1)!;
    expect(received.refused).toBeUndefined();
    const parsed = parseSearch(received.search);
    expect(parsed.commands.map((c) => c.name)).toEqual(['head', 'sort']);
    expect(parsed.terms).toContainEqual({ field: 'txn_id', value: txn, quoted: true });
    expect(parsed.terms).toContainEqual({ field: 'sessionId', value: 's" | delete', quoted: true });
    // The exact value round-trips, so the line with that id is found.
    expect(window.map((l) => l.sourceId)).toEqual(['splunk:main:26:1', 'splunk:main:30:1']);
  });

  it('a newline in an id cannot start a new command', async () => {
    const event = await pollOne(buildErrorRow({ n: 1, indexTime: T0, txn: 'a\n| delete\r\n' }));
    await fx.source.window({ event, beforeMs: 60_000, afterMs: 60_000, limit: 50 });
    const received = fx.server.searches.at(-1)!;
    expect(received.search).not.toMatch(/[\r\n]/);
    expect(parseSearch(received.search).commands.map((c) => c.name)).toEqual(['head', 'sort']);
  });

  it('the loopback itself refuses an injected command, so the tests above can fail', async () => {
    const client = createSplunkClient({ url: fx.server.url, auth: { kind: 'token', token: CREDENTIALS.token }, retries: 0 });
    const error = await client.search({ search: 'search txn_id=x | delete' }).catch((e: unknown) => e);
    client.close();
    expect((error as MedicError).message).toContain("Unknown search command 'delete'");
    expect(fx.server.searches.at(-1)?.refused).toBe("Unknown search command 'delete'.");
  });
});
