import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

const BREAK = /\r\n|\n|\r/;
const LF = 0x0a;
const CR = 0x0d;

/**
 * The lines of a stream, in batches (one per chunk read), split as `node:readline` splits them:
 * at CRLF, LF or a lone CR; a last line without a newline counts, an empty tail after the final
 * newline does not. Batches let a caller run a tight synchronous loop instead of awaiting per line.
 */
export async function* readLineBatches(input: Readable | NodeJS.ReadableStream): AsyncGenerator<string[]> {
  for await (const block of readLineBlocks(input)) yield splitLines(decodeBlock(block));
}

/**
 * The same lines as `readLineBatches`, each batch still one block: whole lines, every one ended by
 * its line break (the last line of the stream is given one). A stream of bytes gives blocks of
 * UTF-8 bytes, cut only after a line break byte, which never falls inside a character: decoding
 * each block alone gives what decoding the stream would. So a block can cross to a worker thread
 * as its bytes, and be decoded and split there (`decodeBlock`, `splitLines`). A block of bytes
 * owns its memory: it may be transferred to a worker.
 */
export async function* readLineBlocks(input: Readable | NodeJS.ReadableStream): AsyncGenerator<string | Uint8Array> {
  const decoder = new StringDecoder('utf8');
  // Bytes until the stream gives text; from then on text, decoded in the order the bytes came.
  let restBytes: Uint8Array | undefined = new Uint8Array(0);
  let rest = '';
  for await (const chunk of input) {
    if (restBytes && typeof chunk !== 'string') {
      const bytes = chunk as Buffer;
      if (bytes.length === 0) continue;
      // A CR at the end of a read may be the first half of a CRLF split across two reads: it
      // stays in the rest, searched no further.
      const searched = bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
      const end = searched > 0 ? Math.max(bytes.lastIndexOf(LF, searched - 1), bytes.lastIndexOf(CR, searched - 1)) + 1 : 0;
      if (end > 0) {
        const block = new Uint8Array(restBytes.length + end);
        block.set(restBytes);
        block.set(bytes.subarray(0, end), restBytes.length);
        restBytes = owned(bytes.subarray(end));
        yield block;
      } else if (restBytes.length > 0 && restBytes[restBytes.length - 1] === CR) {
        // No break in this read, but the CR held from the last one is a break: a byte follows it.
        const block = restBytes;
        restBytes = owned(bytes);
        yield block;
      } else restBytes = owned(Buffer.concat([restBytes, bytes]));
      continue;
    }
    if (restBytes) {
      rest = decoder.write(restBytes);
      restBytes = undefined;
    }
    let text = rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer));
    const heldCr = text.endsWith('\r');
    if (heldCr) text = text.slice(0, -1);
    // Not the last character (a held CR was taken off), so a CR found here is a break of its own.
    const end = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1;
    rest = text.slice(end) + (heldCr ? '\r' : '');
    if (end > 0) yield text.slice(0, end);
  }
  if (restBytes) {
    if (restBytes.length === 0) return;
    if (restBytes[restBytes.length - 1] === CR) restBytes[restBytes.length - 1] = LF;
    else restBytes = owned(Buffer.concat([restBytes, Buffer.of(LF)]));
    yield restBytes;
    return;
  }
  rest += decoder.end();
  if (rest.endsWith('\r')) rest = rest.slice(0, -1) + '\n';
  if (rest !== '') yield rest.endsWith('\n') ? rest : `${rest}\n`;
}

/** A copy in memory of its own (never a slice of Node's shared buffer pool), so it can move to another thread. */
function owned(bytes: Uint8Array): Uint8Array {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}

/** The text of a block from `readLineBlocks`. */
export function decodeBlock(block: string | Uint8Array): string {
  return typeof block === 'string' ? block : Buffer.from(block.buffer, block.byteOffset, block.byteLength).toString('utf8');
}

/** The lines of a block's text. */
export function splitLines(block: string): string[] {
  const lines = block.split(BREAK);
  lines.pop();
  return lines;
}
