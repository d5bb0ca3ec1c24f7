import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { StringDecoder } from 'node:string_decoder';
import { describe, expect, it } from 'vitest';
import { decodeBlock, readLineBatches, readLineBlocks, splitLines } from '../../src/cli/read-lines.js';

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

  it.each(cases)('splits bytes like node:readline: %s', async (_name, chunks) => {
    const bytes = chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c));
    expect(await linesOf(bytes)).toEqual(await readlineOf(bytes));
  });

  it('cuts a stream of bytes into blocks that decode alone to the lines of the stream decoded whole, whatever the reads and the bytes', async () => {
    // node:readline drops an unfinished character at the very end; decoding the stream whole keeps it as U+FFFD.
    const linesOfWhole = (chunks: Buffer[]): string[] => {
      const decoder = new StringDecoder('utf8');
      const lines = (chunks.map((c) => decoder.write(c)).join('') + decoder.end()).split(/\r\n|\n|\r/);
      if (lines[lines.length - 1] === '') lines.pop();
      return lines;
    };
    let seed = 11;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    // Line breaks, pieces of multi-byte characters, a byte-order mark and bytes that are never UTF-8.
    const alphabet = [0x0a, 0x0d, 0x41, 0x20, 0xe2, 0x82, 0xac, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0xef, 0xbb, 0xbf, 0xff, 0xc0];
    for (let round = 0; round < 300; round += 1) {
      const bytes = Buffer.from(Array.from({ length: random(60) }, () => alphabet[random(alphabet.length)] as number));
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; ) {
        const size = 1 + random(7);
        chunks.push(bytes.subarray(at, at + size));
        at += size;
      }
      const viaBlocks: string[] = [];
      for await (const block of readLineBlocks(Readable.from(chunks))) {
        expect(block).toBeInstanceOf(Uint8Array);
        viaBlocks.push(...splitLines(decodeBlock(block)));
      }
      expect(viaBlocks).toEqual(linesOfWhole(chunks));
      expect(await linesOf(chunks)).toEqual(viaBlocks);
    }
  });

  it('carries on in text when a stream of bytes turns to strings', async () => {
    const chunks = [Buffer.from([0x61, 0x0a, 0x62, 0xe2, 0x82]), Buffer.from([0xac]), 'c\r', '\nd'];
    expect(await linesOf(chunks)).toEqual(['a', 'b€c', 'd']);
  });
});
