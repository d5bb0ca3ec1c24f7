import { describe, expect, it } from 'vitest';
import { defaultMaskLimits, maskMessage, maskShape } from '../../src/domain/templates/mask-message.js';

const masked = (message: string): string => maskMessage(message).join(' ');

describe('maskMessage', () => {
  it.each([
    ['numbers and ids with digits', 'order 12345 for user u42 failed', 'order <*> for user <*> failed'],
    ['negative numbers', 'offset -17 out of range', 'offset <*> out of range'],
    ['uuids', 'job 7f1c2e34-8a9b-4c1d-9e2f-0123456789ab stuck', 'job <*> stuck'],
    ['hex literals', 'segfault at 0xdeadbeef', 'segfault at <*>'],
    ['ip addresses with ports', 'connect to 10.0.0.12:5432 refused', 'connect to <*> refused'],
    ['urls', 'GET https://api.example.com/v1/orders?id=9 timed out', 'GET <*> timed out'],
    ['emails', 'mail to alice@example.com bounced', 'mail to <*> bounced'],
    ['unix paths', 'open /var/lib/app/data.db: permission denied', 'open <*>: permission denied'],
    ['windows paths', 'loaded C:\\Windows\\System32\\x.sys', 'loaded <*>'],
    ['iso timestamps', 'at 2024-03-01T12:00:01.123Z worker crashed', 'at <*> worker crashed'],
    ['ctime timestamps', 'Fri Jul 1 12:34:56 PDT 2005 started', '<*> started'],
    ['durations and sizes', 'wrote 12.5 MB in 3s', 'wrote <*> in <*>'],
    ['key=value values', 'retry=3 backoff=250ms status=FAILED', 'retry=<*> backoff=<*> status=<*>'],
    ['quoted key=value values', 'lock tag="View Lock" held', 'lock tag=<*> held'],
    ['mac addresses', 'link 00:1a:2b:3c:4d:5e up', 'link <*> up'],
  ])('masks %s', (_name, message, expected) => {
    expect(masked(message)).toBe(expected);
  });

  it('keeps plain words, punctuation and layout', () => {
    expect(masked('Payment declined: card expired (retry later) ****')).toBe('Payment declined: card expired (retry later) ****');
  });

  it('masks the digit-bearing piece of a word and keeps its structure', () => {
    expect(masked('cancelNotification,index:7')).toBe('cancelNotification,index:<*>');
    expect(masked('node-246 down')).toBe('<*> down');
  });

  it('collapses a list of values, whatever its length, into one wildcard', () => {
    expect(masked('delete blk_1 blk_2 blk_3 done')).toBe(masked('delete blk_9 done'));
    expect(masked('nodes node-1 <ok> node-2 <ok> node-3 <ok>')).toBe('nodes <*> <ok>');
  });

  it('treats control characters as spaces', () => {
    expect(masked('disk\u0000full\u0007now')).toBe('disk full now');
  });

  it('caps message length, token count and token length', () => {
    const limits = { maxMessageLength: 100, maxTokens: 5, maxTokenLength: 8 };
    expect(maskMessage('word '.repeat(1000), limits)).toHaveLength(5);
    expect(maskMessage('x'.repeat(1000), limits)).toEqual(['xxxxxxxx']);
    expect(maskMessage(`${'a '.repeat(49)}tail`, limits).join(' ')).not.toContain('tail');
    expect(defaultMaskLimits.maxTokens).toBeGreaterThan(0);
  });

  it('returns no tokens for an empty or blank message', () => {
    expect(maskMessage('')).toEqual([]);
    expect(maskMessage(' \t ')).toEqual([]);
  });

  it('masks a message as its shape: numbers may differ digit for digit, a 0 stays a 0', () => {
    expect(maskShape('blk_-9023 from 10.250.19.102:50010 took 37ms, 0x7f')).toBe('blk_-1011 from 10.110.11.101:10010 took 11ms, 0x1f');
    expect(masked('hex 0x1f')).toBe('hex <*>');
    let seed = 13;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    // Spans, key=value, lists, times, addresses, hex and plain digits, cut by tight limits as well.
    const parts = ['0x1f', '0X9', '1x2', '10.0.0.1', ':8080', 'ab:cd:ef:01:23:45', '2024-01-02T03:04:05Z', '12ms', '5 KB', '[1, 2, 3]', '/usr/lib/x9', 'blk_-123', 'Jul 1 12:34:56', 'deadbeef-dead-beef-dead-beefdeadbeef', 'x=12', 'a=0x9', ' ', ' ', '.', '..', '-', '=', '"', '0', '7', 'a', 'T', 'Z', '<*>', 'user42'];
    const tight = { maxMessageLength: 40, maxTokens: 6, maxTokenLength: 9 };
    for (let n = 0; n < 5_000; n += 1) {
      const message = Array.from({ length: random(16) }, () => parts[random(parts.length)] as string).join('');
      expect(maskMessage(maskShape(message)), message).toEqual(maskMessage(message));
      expect(maskMessage(maskShape(message), tight), message).toEqual(maskMessage(message, tight));
    }
  });

  it('leaves a value-only group out of the key only after the message has begun', () => {
    expect(maskMessage('wrote 2048 bytes (2.0 KB)')).toEqual(['wrote', '<*>']);
    expect(maskMessage('copied in (12 ms, 3 MB) to backup')).toEqual(['copied', 'in', 'to', 'backup']);
    expect(maskMessage('copied (12 files, 3 MB) to backup')).toEqual(['copied', '(<*>', 'files,', '<*>)', 'to', 'backup']);
    // Opening the message, the group is always there: it stays, and a message of one group keeps it.
    expect(maskMessage('[7435195.965031] [UFW BLOCK] IN=eth0')).toEqual(['[<*>]', '[UFW', 'BLOCK]', 'IN=<*>']);
    expect(maskMessage('(4.3M)')).toEqual(['(<*>)']);
    expect(maskMessage('(took 12 ms)')).toEqual(['(took', '<*>)']);
  });
});
