import { open, readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ErrorEvent, type RawLogLine } from '../../domain/event.js';
import type { LogLineHit, LogSource, PollResult, WindowQuery } from '../../ports/log-source.js';
import { assertLogLinePattern, lineMatches } from '../../domain/log-line-pattern.js';
import { firstLineOf, sinceMsOf } from '../../domain/log-line-hit.js';
import { isPlainHeader, parseJsonRecord, parsePlainRecord, serviceOfFile, severityOf, type FileLogRecord } from './parse-entry.js';
import { createWindowIndex, type FileLine, type RecordSpan } from './window-index.js';

export interface FileLogSourceOptions {
  dir: string;
  correlationFields: string[];
  /** Bytes read per file per poll, so one huge file cannot stall a poll. */
  maxReadBytes?: number;
  /** Invalid lines are reported here and skipped; they never stop a poll. */
  onInvalid?: (sourceId: string, reason: string) => void;
  /** Told of every read a log window makes of a file (from byte `start`), for tests and metrics. */
  onRead?: (path: string, start: number) => void;
}

interface Checkpoint {
  offsets: Record<string, number>;
}

const LOG_FILE = /\.(jsonl|ndjson|log)$/;
/** A line's first character that is not white space (none for a blank line). */
const FIRST_VISIBLE = /\S/;
const ERROR_LEVELS = new Set(['critical', 'error']);

async function listLogFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && LOG_FILE.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Reads complete lines from `offset`, returning each line's byte offset; a partial last line waits. */
async function readLines(path: string, offset: number, maxBytes: number): Promise<{ lines: FileLine[]; start: number; next: number; toEnd: boolean }> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const start = size < offset ? 0 : offset; // truncated or rotated: start over
    const length = Math.min(size - start, maxBytes);
    const toEnd = start + length >= size;
    if (length <= 0) return { lines: [], start, next: start, toEnd };
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, start);
    const lines: FileLine[] = [];
    let cursor = 0;
    for (let nl = buffer.indexOf(10, cursor); nl !== -1; nl = buffer.indexOf(10, cursor)) {
      // A CRLF line ends in \r (13).
      const end = nl > cursor && buffer[nl - 1] === 13 ? nl - 1 : nl;
      lines.push({ at: start + cursor, text: buffer.toString('utf8', cursor, end) });
      cursor = nl + 1;
    }
    return { lines, start, next: start + cursor, toEnd };
  } finally {
    await handle.close();
  }
}

/** Bytes a poll reads of a file at a time. */
const SLICE_BYTES = 1024 * 1024;

/**
 * Where the plain entry still open at the end of `lines` starts (its header's index), when the
 * lines after that header are its continuation lines; `lines.length` when the last entry is
 * closed (a JSON record) or the open one is all there is.
 */
function openPlainEntry(lines: FileLine[]): number {
  for (let i = lines.length - 1; i > 0; i--) {
    const text = lines[i]!.text;
    if (/^\s*\{/.test(text)) return lines.length;
    if (isPlainHeader(text)) return i;
  }
  return lines.length;
}

export function createFileLogSource(options: FileLogSourceOptions): LogSource {
  const maxRead = options.maxReadBytes ?? 16 * 1024 * 1024;

  /** Turns lines into records, with the lines each spans; plain logs fold continuation lines (stack traces) into their entry. */
  function toSpans(path: string, lines: FileLine[], onInvalid = options.onInvalid): RecordSpan[] {
    const rel = relative(options.dir, path);
    const spans: RecordSpan[] = [];
    let pending: { at: number; text: string; first: number } | undefined;
    const flushPlain = (end: number) => {
      if (!pending) return;
      const record = parsePlainRecord(pending.text, `${rel}@${pending.at}`, options.correlationFields);
      if (record) spans.push({ record, first: pending.first, end });
      else onInvalid?.(`${rel}@${pending.at}`, 'unrecognized plain log line');
      pending = undefined;
    };
    let lastOfPending = 0;
    for (const [i, line] of lines.entries()) {
      const first = FIRST_VISIBLE.exec(line.text)?.[0];
      if (first === undefined) continue;
      if (first === '{') {
        flushPlain(lastOfPending + 1);
        const record = parseJsonRecord(line.text, `${rel}@${line.at}`, options.correlationFields, serviceOfFile(rel));
        if (record) spans.push({ record, first: i, end: i + 1 });
        else onInvalid?.(`${rel}@${line.at}`, 'malformed JSON log record');
      } else if (isPlainHeader(line.text)) {
        flushPlain(lastOfPending + 1);
        pending = { at: line.at, text: line.text, first: i };
        lastOfPending = i;
      } else if (pending) {
        pending.text += `\n${line.text}`;
        lastOfPending = i;
      } else {
        onInvalid?.(`${rel}@${line.at}`, 'continuation line without an entry');
      }
    }
    flushPlain(lastOfPending + 1);
    return spans;
  }

  const windows = createWindowIndex({
    readLines: (path, start, maxBytes) => {
      options.onRead?.(path, start);
      return readLines(path, start, maxBytes);
    },
    maxReadBytes: maxRead,
    toSpans: (path, lines) => toSpans(path, lines, () => undefined),
  });

  function toEvent(record: FileLogRecord): ErrorEvent | undefined {
    const parsed = ErrorEvent.safeParse({
      id: `file:${record.sourceId}`,
      source: 'file',
      time: record.time,
      service: record.service,
      severity: severityOf(record.level),
      message: record.message,
      raw: record.raw,
      errorCode: record.errorCode,
      correlationIds: record.correlationIds,
      sessionId: record.sessionId,
      fields: record.fields,
    });
    if (!parsed.success) options.onInvalid?.(record.sourceId, `invalid event: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
    return parsed.success ? parsed.data : undefined;
  }

  /**
   * Reads one file from `from`, a slice at a time, up to the per-poll budget: each slice's events
   * are handed over (and awaited) before the next is read, so a storm's file is never all in
   * memory. A plain entry at a slice's end may go on in the next slice (its stack trace): it is
   * left for the next slice, unless it is the whole slice. Returns the offset read to.
   */
  async function pollFile(path: string, from: number, onEvents: (events: ErrorEvent[]) => Promise<void>): Promise<number> {
    let offset = from;
    let budget = maxRead;
    while (budget > 0) {
      const { lines, start, next, toEnd } = await readLines(path, offset, Math.min(SLICE_BYTES, budget));
      if (lines.length === 0) return start;
      const cut = toEnd || next - start >= budget ? lines.length : openPlainEntry(lines);
      const used = cut === lines.length ? lines : lines.slice(0, cut);
      const end = cut === lines.length ? next : lines[cut]!.at;
      const spans = toSpans(path, used);
      windows.learn(path, start, end, used, spans);
      const events: ErrorEvent[] = [];
      for (const { record } of spans) {
        if (!ERROR_LEVELS.has(severityOf(record.level))) continue;
        const event = toEvent(record);
        if (event) events.push(event);
      }
      if (events.length > 0) await onEvents(events);
      budget -= end - start;
      offset = end;
      if (toEnd) break;
    }
    return offset;
  }

  async function pollStream(checkpointText: string | undefined, onEvents: (events: ErrorEvent[]) => Promise<void>) {
    const checkpoint: Checkpoint = checkpointText ? (JSON.parse(checkpointText) as Checkpoint) : { offsets: {} };
    const offsets = { ...checkpoint.offsets };
    let count = 0;
    for (const path of await listLogFiles(options.dir)) {
      const rel = relative(options.dir, path);
      offsets[rel] = await pollFile(path, offsets[rel] ?? 0, async (events) => {
        count += events.length;
        await onEvents(events);
      });
    }
    return { checkpoint: JSON.stringify({ offsets }), events: count };
  }

  return {
    name: 'file',
    async poll(checkpointText): Promise<PollResult> {
      const events: ErrorEvent[] = [];
      const { checkpoint } = await pollStream(checkpointText, async (batch) => {
        for (const event of batch) events.push(event);
      });
      return { events, checkpoint };
    },
    pollStream,
    async window(query: WindowQuery): Promise<RawLogLine[]> {
      const at = Date.parse(query.event.time);
      const ids = new Set(Object.values(query.event.correlationIds));
      // Invalid lines were reported when they were polled; the window skips them quietly.
      const records = await windows.query(await listLogFiles(options.dir), {
        fromMs: at - query.beforeMs,
        toMs: at + query.afterMs,
        limit: query.limit,
        keep(record) {
          const correlated = ids.size === 0 ? record.service === query.event.service : record.ids.some((id) => ids.has(id));
          const sameSession = !query.event.sessionId || !record.sessionId || record.sessionId === query.event.sessionId;
          return correlated && sameSession;
        },
      });
      // The window shows each line with its clues: the `key=value` or `detail` that says why.
      return records.map((record) => ({ ...record, message: record.evidence }));
    },
    // Each file's newest bytes (the per-poll read budget): a deploy marker is recent by nature.
    async findLine(service, pattern, sinceIso): Promise<LogLineHit | undefined> {
      const text = assertLogLinePattern(pattern);
      const since = sinceMsOf(sinceIso);
      let best: { ms: number; line: string } | undefined;
      for (const path of await listLogFiles(options.dir)) {
        const size = (await stat(path).catch(() => undefined))?.size ?? 0;
        const from = Math.max(0, size - maxRead);
        const { lines } = await readLines(path, from, maxRead);
        // Read from inside the file, the first line is a fragment of one.
        for (const { record } of toSpans(path, from > 0 ? lines.slice(1) : lines, () => undefined)) {
          const ms = Date.parse(record.time);
          if (record.service !== service || !(ms >= since) || (best && ms >= best.ms) || !lineMatches(record.raw, text)) continue;
          best = { ms, line: firstLineOf(record.raw) };
        }
      }
      return best && { at: new Date(best.ms).toISOString(), line: best.line };
    },
    async check() {
      const info = await stat(options.dir).catch(() => undefined);
      const files = info ? await listLogFiles(options.dir) : [];
      return {
        name: 'log source',
        adapter: `files under ${options.dir} (embedded)`,
        ok: Boolean(info?.isDirectory()),
        detail: info ? `${files.length} log file(s)` : `directory ${options.dir} does not exist; set MEDIC_LOG_DIR`,
      };
    },
  };
}
