import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileLogSource } from '../../src/adapters/file-logs/file-log-source.js';
import { ErrorCode } from '../../src/domain/errors.js';

const json = (time: string, service: string, msg: string) => JSON.stringify({ time, level: 'info', service, msg });

describe('file logs deploy marker: the first log line with the pattern', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'medic-find-line-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("finds the service's earliest matching line since the merge, across JSON and plain files", async () => {
    writeFileSync(join(dir, 'shop.jsonl'), [
      json('2026-03-01T10:00:00Z', 'checkout', 'Deployed version 41'),
      json('2026-03-01T11:10:00Z', 'billing', 'deployed version 42'),
      json('2026-03-01T11:30:00Z', 'checkout', 'deployed version 42'),
      '',
    ].join('\n'));
    writeFileSync(join(dir, 'checkout.log'), [
      '2026-03-01T11:20:00.000Z INFO [checkout] DEPLOYED VERSION 42 on host a',
      '2026-03-01T11:40:00.000Z INFO [checkout] deployed version 43',
      '',
    ].join('\n'));
    const logs = createFileLogSource({ dir, correlationFields: ['txn_id'] });
    expect(await logs.findLine!('checkout', 'deployed version', '2026-03-01T11:00:00Z')).toEqual({
      // The record's message, as the window shows it (the header's time, level and service are fields).
      at: '2026-03-01T11:20:00.000Z', line: 'DEPLOYED VERSION 42 on host a',
    });
    expect(await logs.findLine!('billing', 'deployed version', '2026-03-01T11:00:00Z')).toMatchObject({ at: '2026-03-01T11:10:00.000Z' });
    expect(await logs.findLine!('checkout', 'deployed version', '2026-03-01T11:50:00Z')).toBeUndefined();
    // Literal text: regex syntax means nothing.
    expect(await logs.findLine!('checkout', 'deployed.*42', '2026-03-01T11:00:00Z')).toBeUndefined();
  });

  it("reads only each file's newest bytes, and refuses a bad pattern", async () => {
    const old = Array.from({ length: 2_000 }, (_, i) => json('2026-03-01T09:00:00Z', 'checkout', `noise ${i} deployed version 40`));
    writeFileSync(join(dir, 'big.jsonl'), [...old, json('2026-03-01T11:30:00Z', 'checkout', 'deployed version 42'), ''].join('\n'));
    const logs = createFileLogSource({ dir, correlationFields: [], maxReadBytes: 4_096 });
    expect(await logs.findLine!('checkout', 'deployed version', '2026-03-01T11:00:00Z')).toMatchObject({ at: '2026-03-01T11:30:00.000Z' });
    await expect(logs.findLine!('checkout', '   ', '2026-03-01T11:00:00Z')).rejects.toMatchObject({ code: ErrorCode.ValidationFailed });
    await expect(logs.findLine!('checkout', 'deployed', 'not a time')).rejects.toMatchObject({ code: ErrorCode.ValidationFailed });
  });
});
