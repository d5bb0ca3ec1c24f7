import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

const BREAK = /\r\n|\n|\r/;

/**
 * The lines of a stream, in batches (one per chunk read), split as `node:readline` splits them:
 * at CRLF, LF or a lone CR; a last line without a newline counts, an empty tail after the final
 * newline does not. Batches let a caller run a tight synchronous loop instead of awaiting per line.
 */
export async function* readLineBatches(input: Readable | NodeJS.ReadableStream): AsyncGenerator<string[]> {
  for await (const block of readLineBlocks(input)) yield splitLines(block);
}

/**
 * The same lines as `readLineBatches`, each batch still one string: whole lines, every one ended
 * by its line break (the last line of the stream is given one). A block crosses to a worker
 * thread as one copy where an array of lines costs one per line; `splitLines` cuts it.
 */
export async function* readLineBlocks(input: Readable | NodeJS.ReadableStream): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of input) {
    let text = rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer));
    // A CR at the end of a chunk may be the first half of a CRLF split across two reads.
    const heldCr = text.endsWith('\r');
    if (heldCr) text = text.slice(0, -1);
    // Not the last character (a held CR was taken off), so a CR found here is a break of its own.
    const end = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1;
    rest = text.slice(end) + (heldCr ? '\r' : '');
    if (end > 0) yield text.slice(0, end);
  }
  rest += decoder.end();
  if (rest.endsWith('\r')) rest = rest.slice(0, -1) + '\n';
  if (rest !== '') yield rest.endsWith('\n') ? rest : `${rest}\n`;
}

/** The lines of a block from `readLineBlocks`. */
export function splitLines(block: string): string[] {
  const lines = block.split(BREAK);
  lines.pop();
  return lines;
}
