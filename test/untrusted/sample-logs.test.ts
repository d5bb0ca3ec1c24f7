import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isPlainHeader, parseJsonRecord, parsePlainRecord } from '../../src/adapters/file-logs/parse-entry.js';
import { buildRcaContext } from '../../src/analysts/rca-context.js';
import { escapeMrkdwn } from '../../src/presenters/incident-card.js';
import { sanitizeUntrusted } from '../../src/domain/untrusted/prepare.js';
import { buildRcaInput } from '../analysts/builders.js';

// The sample logs carry deliberately hostile lines: fake secrets, fence closers, SYSTEM turns, pings.
const jsonRecords = readFileSync('data/logs/shop.jsonl', 'utf8')
  .split('\n')
  .flatMap((line, i) => parseJsonRecord(line, `shop.jsonl:${i}`, []) ?? []);
// Plain entries are a header line plus indented continuation lines (stack frames).
const plainEntries = readFileSync('data/logs/shop-gateway.log', 'utf8')
  .split('\n')
  .reduce<string[]>((entries, line) => (isPlainHeader(line) || entries.length === 0 ? [...entries, line] : [...entries.slice(0, -1), `${entries.at(-1)}\n${line}`]), []);
const records = [...jsonRecords, ...plainEntries.flatMap((text, i) => parsePlainRecord(text, `gateway:${i}`, []) ?? [])];
const SECRET_SHAPES = [/AKIA[0-9A-Z]{16}/, /xox[abpr]-\d/, /ghp_[A-Za-z0-9]{20}/, /eyJ[\w-]{8,}\.eyJ/, /Bearer [A-Za-z0-9._-]{12}/, /password=(?!\[REDACTED)/i];

describe('the sample logs, hostile lines included', () => {
  it('reach the RCA prompt redacted and inside their fences', () => {
    const input = buildRcaInput();
    expect(records.length).toBeGreaterThan(250);
    input.logs.entries = records.slice(-200).map((r, i) => ({ id: `log-${i}`, time: r.time, level: r.level, service: r.service, message: r.raw }));
    const nonce = 'abc123def456';
    const { user } = buildRcaContext(input, nonce);
    expect(user.match(/<<\s*\/?\s*untrusted/gi)).toHaveLength(8);
    for (const shape of SECRET_SHAPES) expect(user).not.toMatch(shape);
  });

  it('reach Slack without a ping, a link or a secret', () => {
    for (const record of records) {
      const slack = escapeMrkdwn(sanitizeUntrusted(record.raw));
      expect(slack).not.toMatch(/<!(channel|here|everyone)/);
      for (const shape of SECRET_SHAPES) expect(slack).not.toMatch(shape);
    }
  });
});
