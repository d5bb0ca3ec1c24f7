import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

const BREAK = /\r\n|\n|\r/;

/**
 * The lines of a stream, in batches (one per chunk read), split as `node:readline` splits them:
 * at CRLF, LF or a lone CR; a last line without a newline counts, an empty tail after the final
 * newline does not. Batches let a caller run a tight synchronous loop instead of awaiting per line.
 */
export async function* readLineBatches(input: Readable | NodeJS.ReadableStream): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of input) {
    let text = rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer));
    // A CR at the end of a chunk may be the first half of a CRLF split across two reads.
    const heldCr = text.endsWith('\r');
    if (heldCr) text = text.slice(0, -1);
    const lines = text.split(BREAK);
    rest = (lines.pop() ?? '') + (heldCr ? '\r' : '');
    if (lines.length > 0) yield lines;
  }
  rest += decoder.end();
  if (rest.endsWith('\r')) rest = rest.slice(0, -1) + '\n';
  const tail = rest.split(BREAK);
  if (tail[tail.length - 1] === '') tail.pop();
  if (tail.length > 0) yield tail;
}
