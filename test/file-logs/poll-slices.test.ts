/**
 * The file source reads a poll's bytes a slice at a time and hands each slice's events over
 * before reading on: entries never split at a slice's edge, nothing is lost or read twice, and
 * the consumer's pace holds the reading back.
 */
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileLogSource } from '../../src/adapters/file-logs/file-log-source.js';
import type { ErrorEvent } from '../../src/domain/event.js';

const T = Date.parse('2027-01-15T08:00:00.000Z');
const at = (n: number) => new Date(T + n * 1000).toISOString();

/** A plain entry with a five-line stack trace, about 400 bytes. */
const plainEntry = (n: number) => [
  `${at(n)} ERROR [shop] Payment declined for order ${n} txn_id=T-${n}`,
  `Error: Payment declined for order ${n}`,
  ...Array.from({ length: 5 }, (_, f) => `    at frame${f} (/srv/shop/src/payments/charge-${f}.ts:${10 + f}:${n % 80})`),
].join('\n');

describe('polling a file a slice at a time', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'medic-poll-slices-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keeps every multi-line plain entry whole across slice edges, and resumes from the checkpoint', async () => {
    const invalid: string[] = [];
    const source = createFileLogSource({ dir, correlationFields: ['txn_id'], onInvalid: (id, reason) => void invalid.push(`${id}: ${reason}`) });
    const first = Array.from({ length: 8_000 }, (_, n) => plainEntry(n));
    await writeFile(join(dir, 'app.log'), first.join('\n') + '\n');
    const batches: number[] = [];
    const seen: ErrorEvent[] = [];
    const { checkpoint, events } = await source.pollStream!(undefined, async (batch) => {
      batches.push(batch.length);
      seen.push(...batch);
    });
    expect(batches.length).toBeGreaterThan(2);
    expect(events).toBe(8_000);
    expect(invalid).toEqual([]);
    expect(seen.every((e, n) => e.message === `Payment declined for order ${n}` && e.raw.split('\n').length === 7)).toBe(true);

    await appendFile(join(dir, 'app.log'), [8_000, 8_001].map(plainEntry).join('\n') + '\n');
    const next = await source.poll(checkpoint);
    expect(next.events.map((e) => e.correlationIds.txn_id)).toEqual(['T-8000', 'T-8001']);
  });

  it('reads no further while the consumer is still busy with the last slice', async () => {
    const rows = Array.from({ length: 12_000 }, (_, n) => JSON.stringify({ time: at(n), level: 'ERROR', service: 'shop', message: `failure ${n} ${'x'.repeat(200)}` }));
    await writeFile(join(dir, 'app.jsonl'), rows.join('\n') + '\n');
    const source = createFileLogSource({ dir, correlationFields: [] });
    let busy = false;
    let overlapped = false;
    let total = 0;
    await source.pollStream!(undefined, async (batch) => {
      overlapped ||= busy;
      busy = true;
      total += batch.length;
      await new Promise((resolve) => setTimeout(resolve, 5));
      busy = false;
    });
    expect(overlapped).toBe(false);
    expect(total).toBe(12_000);
  });
});
