import { appendFile, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileLogSource } from '../../src/adapters/file-logs/file-log-source.js';
import type { ErrorEvent } from '../../src/domain/event.js';

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
    // The window keeps the line's key=value fields: they are what a reader correlates by.
    expect(window[2]!.message).toBe('Payment declined txn_id=T-1\nError: Payment declined\n    at charge (src/payment/charge.ts:42:11)');
    expect(window[2]!.sourceId).toBe(event.id.replace(/^file:/, ''));
  });

  it('reads a fresh index on to the event when the file is bigger than one read', async () => {
    const file = join(dir, 'big.jsonl');
    const line = (s: number, message: string) => `${JSON.stringify({ time: at(s), level: 'INFO', service: 'shop', message, txn_id: 'T-9' })}\n`;
    const filler = Array.from({ length: 400 }, (_, i) => line(-3_600 + i, `old chatter ${i}`)).join('');
    await writeFile(file, filler + line(-5, 'cart loaded') + line(0, 'Payment declined').replace('"INFO"', '"ERROR"'));
    const small = () => createFileLogSource({ dir, correlationFields: ['txn_id'], maxReadBytes: 4_096 });
    const poller = small();
    let checkpoint: Awaited<ReturnType<typeof poller.poll>>['checkpoint'] | undefined;
    let event: ErrorEvent | undefined;
    for (let i = 0; i < 50 && !event; i++) {
      const polled = await poller.poll(checkpoint);
      checkpoint = polled.checkpoint;
      event = polled.events.find((e) => e.message === 'Payment declined');
    }
    if (!event) throw new Error('the poller never reached the event');
    // Another process (a fresh index) builds the window: it must reach the event, past many reads.
    const window = await small().window({ event, beforeMs: 60_000, afterMs: 60_000, limit: 10 });
    expect(window.map((l) => l.message)).toEqual(['cart loaded', 'Payment declined']);
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

  it('indexes what the poll parsed, reads only appended bytes, and starts over for a rewritten or rotated file', async () => {
    const file = join(dir, 'app.jsonl');
    const line = (s: number, message: string) => `${JSON.stringify({ time: at(s), level: 'ERROR', service: 'shop', message, txn_id: 'T-1' })}\n`;
    const reads: number[] = [];
    const source = createFileLogSource({ dir, correlationFields: ['txn_id'], onRead: (_path, start) => void reads.push(start) });
    await writeFile(file, line(0, 'first failure') + line(1, 'second failure'));
    const [event] = (await source.poll(undefined)).events;
    const query = { event: event!, beforeMs: 60_000, afterMs: 60_000, limit: 10 };
    reads.length = 0;
    expect((await source.window(query)).map((l) => l.message)).toEqual(['first failure', 'second failure']);
    expect(reads).toEqual([]);

    const size = Buffer.byteLength(line(0, 'first failure') + line(1, 'second failure'));
    await appendFile(file, line(2, 'third failure'));
    expect((await source.window(query)).map((l) => l.message)).toEqual(['first failure', 'second failure', 'third failure']);
    expect(reads).toEqual([size]);

    // Rewritten in place, longer than before: its start changed, so it is read from byte 0.
    reads.length = 0;
    await writeFile(file, line(0, 'rewritten failure') + line(1, 'second failure') + line(2, 'third failure') + line(3, 'fourth'));
    expect((await source.window(query)).map((l) => l.message)).toEqual(['rewritten failure', 'second failure', 'third failure', 'fourth']);
    expect(reads).toEqual([0]);

    // Rotated: a new file under the old name, its start the same as the old one's.
    reads.length = 0;
    await rename(file, join(dir, 'old.txt'));
    await writeFile(file, line(0, 'rewritten failure') + line(5, 'after rotation') + line(6, 'more after rotation') + line(7, 'and more'));
    expect((await source.window(query)).map((l) => l.message)).toEqual(['rewritten failure', 'after rotation', 'more after rotation', 'and more']);
    expect(reads).toEqual([0]);
  });
});
