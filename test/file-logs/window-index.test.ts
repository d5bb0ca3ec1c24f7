import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileLogSource } from '../../src/adapters/file-logs/file-log-source.js';

const T = Date.parse('2027-01-15T08:00:00.000Z');
const at = (s: number) => new Date(T + s * 1000).toISOString();

describe('file log windows from the index', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'medic-window-index-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const source = () => createFileLogSource({ dir, correlationFields: ['txn_id'] });

  it('gives plain entries whole (stack trace lines folded in, blank lines skipped) and JSON records, by time', async () => {
    await writeFile(join(dir, 'plain.log'), [
      `${at(-20)} INFO [shop] cart loaded txn_id=T-1`,
      `${at(0)} ERROR [shop] Payment declined txn_id=T-1`,
      'Error: Payment declined',
      '',
      '    at charge (src/payment/charge.ts:42:11)\r',
      `${at(5)} INFO [shop] unrelated txn_id=T-2`,
    ].join('\n') + '\n');
    await writeFile(join(dir, 'app.jsonl'), `${JSON.stringify({ time: at(-10), level: 'WARN', service: 'gateway', message: 'slow upstream', txn_id: 'T-1' })}\n`);
    const logs = source();
    const { events } = await logs.poll(undefined);
    const event = events.find((e) => e.message.startsWith('Payment declined'))!;
    const window = await logs.window({ event, beforeMs: 60_000, afterMs: 60_000, limit: 10 });
    expect(window.map((l) => l.time)).toEqual([at(-20), at(-10), at(0)]);
    expect(window[2]!.message).toBe('Payment declined\nError: Payment declined\n    at charge (src/payment/charge.ts:42:11)');
    expect(window[2]!.sourceId).toBe(event.id.replace(/^file:/, ''));
  });

  it('sees lines appended after the first window, and a file rewritten shorter', async () => {
    const file = join(dir, 'app.jsonl');
    const line = (s: number, message: string, txn = 'T-1') => `${JSON.stringify({ time: at(s), level: 'ERROR', service: 'shop', message, txn_id: txn })}\n`;
    await writeFile(file, line(0, 'first failure'));
    const logs = source();
    const [event] = (await logs.poll(undefined)).events;
    const query = { event: event!, beforeMs: 60_000, afterMs: 60_000, limit: 10 };
    expect((await logs.window(query)).map((l) => l.message)).toEqual(['first failure']);
    await appendFile(file, line(3, 'second failure') + line(4, 'other transaction', 'T-9'));
    expect((await logs.window(query)).map((l) => l.message)).toEqual(['first failure', 'second failure']);
    await writeFile(file, line(1, 'rewritten'));
    expect((await logs.window(query)).map((l) => l.message)).toEqual(['rewritten']);
  });

  it('answers concurrent windows from one parse, each with its own correlation and cap', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => JSON.stringify({ time: at(i % 50), level: 'ERROR', service: 'shop', message: `failure ${i}`, txn_id: `T-${i % 4}` }));
    await writeFile(join(dir, 'app.jsonl'), rows.join('\n') + '\n');
    const logs = source();
    const { events } = await logs.poll(undefined);
    const windows = await Promise.all(events.slice(0, 4).map((event) => logs.window({ event, beforeMs: 600_000, afterMs: 600_000, limit: 7 })));
    windows.forEach((window, i) => {
      expect(window).toHaveLength(7);
      expect(window.every((l) => l.correlationIds.txn_id === `T-${i}`)).toBe(true);
      expect(window.map((l) => l.time)).toEqual([...window.map((l) => l.time)].sort());
    });
  });
});
