import { ErrorCode, MedicError } from '../../domain/errors.js';
import { parseMessages, streamError } from './splunk-errors.js';

/** One result row as Splunk sends it: every value a string, multi-valued fields arrays. */
export type SplunkRow = Record<string, unknown>;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function corrupt(reason: string): MedicError {
  return new MedicError(ErrorCode.UpstreamUnavailable, `Splunk's export stream was ${reason}; nothing from this poll was kept and it will be retried.`, { transient: true });
}

/**
 * Reads the NDJSON that `search/v2/jobs/export` streams with output_mode=json: preview rows are
 * dropped, messages on any line are checked, and the stream must end with a final `lastrow`, so
 * a cut connection can never pass for a complete (shorter) result.
 */
export async function readExportStream(body: AsyncIterable<Buffer>, onRow: (row: SplunkRow) => void): Promise<void> {
  let pending = Buffer.alloc(0);
  let finished = false;
  let sawBytes = false;

  const handleLine = (bytes: Buffer) => {
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      throw corrupt('not valid UTF-8');
    }
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
    if (line.result && typeof line.result === 'object') onRow(line.result as SplunkRow);
    if (Array.isArray(line.results)) for (const row of line.results) if (row && typeof row === 'object') onRow(row as SplunkRow);
    if (line.lastrow === true) finished = true;
  };

  for await (const chunk of body) {
    sawBytes = true;
    let data = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    let start = 0;
    for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
      handleLine(data.subarray(start, nl));
      start = nl + 1;
    }
    data = data.subarray(start);
    pending = Buffer.from(data);
  }
  if (pending.length > 0) handleLine(pending);
  // An empty 200 body is how some servers say "no results"; anything else must end with lastrow.
  if (sawBytes && !finished) throw corrupt('cut short (no final lastrow)');
}
