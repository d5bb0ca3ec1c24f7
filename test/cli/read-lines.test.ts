import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { readLineBatches } from '../../src/cli/read-lines.js';

async function linesOf(chunks: (string | Buffer)[]): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of readLineBatches(Readable.from(chunks))) out.push(...batch);
  return out;
}

async function readlineOf(chunks: (string | Buffer)[]): Promise<string[]> {
  const out: string[] = [];
  for await (const line of createInterface({ input: Readable.from(chunks), crlfDelay: Infinity })) out.push(line);
  return out;
}

describe('readLineBatches', () => {
  const cases: [string, (string | Buffer)[]][] = [
    ['LF, CRLF and a lone CR', ['a\nb\r\nc\rd\n']],
    ['a CRLF split across two reads', ['a\r', '\nb\n']],
    ['a lone CR at the very end', ['a\nb\r']],
    ['a last line without a newline', ['a\nb']],
    ['empty lines kept, no empty tail', ['\n\na\n\n']],
    ['nothing at all', []],
    ['a multi-byte character split across reads', [Buffer.from([0x61, 0xe2, 0x82]), Buffer.from([0xac, 0x0a, 0x62])]],
  ];
  it.each(cases)('splits like node:readline: %s', async (_name, chunks) => {
    expect(await linesOf(chunks)).toEqual(await readlineOf(chunks));
  });

  it('keeps a split multi-byte character whole', async () => {
    expect(await linesOf([Buffer.from([0x61, 0xe2, 0x82]), Buffer.from([0xac, 0x0a])])).toEqual(['a€']);
  });
});
