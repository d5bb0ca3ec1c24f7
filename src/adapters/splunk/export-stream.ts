import { ErrorCode, MedicError } from '../../domain/errors.js';
import { parseMessages, streamError } from './splunk-errors.js';

/** One result row as Splunk sends it: every value a string, multi-valued fields arrays. */
export type SplunkRow = Record<string, unknown>;

function corrupt(reason: string): MedicError {
  return new MedicError(ErrorCode.UpstreamUnavailable, `Splunk's export stream was ${reason}; the poll's checkpoint stays where it was and the poll will be retried.`, { transient: true });
}

/**
 * Reads the NDJSON that `search/v2/jobs/export` streams with output_mode=json: preview rows are
 * dropped, messages on any line are checked, and the stream must end with a final `lastrow`, so
 * a cut connection can never pass for a complete (shorter) result.
 *
 * Rows are handed over as they arrive, one batch per chunk read. While `onRows` works on a
 * batch (its promise pending) nothing more is read, so the socket's buffers fill and TCP slows
 * Splunk down: memory stays bounded by one chunk however large the export. A consumer that needs
 * the whole result before acting must wait for this to resolve, since a later line may still fail.
 */
export async function readExportStream(body: AsyncIterable<Buffer>, onRows: (rows: SplunkRow[]) => void | Promise<void>): Promise<void> {
  // One streaming decoder for the whole body: a character split across two chunks is joined, and
  // invalid UTF-8 anywhere still fails the stream.
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let pending = '';
  let finished = false;
  let sawBytes = false;
  let batch: SplunkRow[] = [];

  const handleLine = (text: string) => {
    if (text.trim() === '') return;
    let line: { preview?: unknown; lastrow?: unknown; result?: unknown; results?: unknown; messages?: unknown };
    try {
      line = JSON.parse(text) as typeof line;
    } catch {
      throw corrupt('malformed (a line was not JSON)');
    }
    if (Array.isArray(line.messages)) {
      const error = streamError(parseMessages(text));
      if (error) throw error;
    }
    if (line.preview === true) return;
    if (line.result && typeof line.result === 'object') batch.push(line.result as SplunkRow);
    if (Array.isArray(line.results)) for (const row of line.results) if (row && typeof row === 'object') batch.push(row as SplunkRow);
    if (line.lastrow === true) finished = true;
  };
  const decode = (chunk?: Buffer): string => {
    try {
      return chunk === undefined ? utf8.decode() : utf8.decode(chunk, { stream: true });
    } catch {
      throw corrupt('not valid UTF-8');
    }
  };

  for await (const chunk of body) {
    sawBytes = true;
    const text = pending + decode(chunk);
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      handleLine(text.slice(start, nl));
      start = nl + 1;
    }
    pending = text.slice(start);
    if (batch.length > 0) {
      const rows = batch;
      batch = [];
      await onRows(rows);
    }
  }
  pending += decode();
  if (pending.length > 0) handleLine(pending);
  if (batch.length > 0) await onRows(batch);
  // An empty 200 body is how some servers say "no results"; anything else must end with lastrow.
  if (sawBytes && !finished) throw corrupt('cut short (no final lastrow)');
}
