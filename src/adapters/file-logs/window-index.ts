import { open } from 'node:fs/promises';
import type { FileLogRecord } from './parse-entry.js';

/** One line of a log file, at its byte offset. */
export interface FileLine {
  at: number;
  text: string;
}

/** A record as a log window needs it to decide membership; the record itself is re-read on a match. */
interface IndexedRecord {
  time: string;
  ms: number;
  service: string;
  sessionId?: string;
  ids: string[];
  /** The byte range of the record's lines (a plain entry spans its continuation lines). */
  start: number;
  end: number;
}

interface FileIndex {
  /** The file it indexes (a rotated file is a new inode). */
  ino: number;
  /** The first bytes of the file: a file rewritten in place is indexed again from the start. */
  head: string;
  /** Bytes parsed so far, up to the end of the last complete line: log files only grow. */
  covered: number;
  records: IndexedRecord[];
}

export interface RecordSpan {
  record: FileLogRecord;
  /** Index of the record's first line and one past its last. */
  first: number;
  end: number;
}

export interface WindowIndexOptions {
  /** Reads complete lines of `path` in [start, start + maxBytes). */
  readLines(path: string, start: number, maxBytes: number): Promise<{ lines: FileLine[]; next: number }>;
  /** Parses lines into records, with the lines each came from. */
  toSpans(path: string, lines: FileLine[]): RecordSpan[];
  maxReadBytes: number;
}

export interface WindowFilter {
  fromMs: number;
  toMs: number;
  keep(record: Pick<IndexedRecord, 'service' | 'sessionId' | 'ids'>): boolean;
  limit: number;
}

/** Bytes of a file's start kept to tell an append from a rewrite. */
const HEAD_BYTES = 256;
/** Records kept per file (about 150 bytes each): a file that grows for days keeps its newest. */
const MAX_RECORDS = 400_000;

/** Appends in place (an index grows a slice at a time), dropping the oldest past the cap. */
const appended = (records: IndexedRecord[], more: IndexedRecord[]) => {
  for (const record of more) records.push(record);
  if (records.length > MAX_RECORDS * 1.1) records.splice(0, records.length - MAX_RECORDS);
  return records;
};

async function readHead(path: string): Promise<{ ino: number; size: number; head: string }> {
  const handle = await open(path, 'r');
  try {
    const info = await handle.stat();
    const buffer = Buffer.alloc(Math.min(HEAD_BYTES, info.size));
    await handle.read(buffer, 0, buffer.length, 0);
    return { ino: info.ino, size: info.size, head: buffer.toString('latin1') };
  } finally {
    await handle.close();
  }
}

/**
 * Log windows over files without re-parsing them per query: each file is indexed once into a
 * compact list of time, service, session and correlation ids, extended as the file grows (by
 * what the poll already parsed, or by reading only the new bytes), and a query re-reads only the
 * records it keeps. The 20 analyses of a storm then share the poll's parse of the storm's files
 * instead of parsing them again. A shorter file, a new inode or a changed start is indexed anew.
 */
export function createWindowIndex(options: WindowIndexOptions) {
  const indexes = new Map<string, Promise<FileIndex | undefined>>();

  const toIndexed = (lines: FileLine[], next: number, spans: RecordSpan[]) => spans.map(({ record, first, end }): IndexedRecord => ({
    time: record.time,
    ms: Date.parse(record.time),
    service: record.service,
    ...(record.sessionId === undefined ? {} : { sessionId: record.sessionId }),
    ids: Object.values(record.correlationIds),
    start: lines[first]?.at ?? 0,
    end: lines[end]?.at ?? next,
  }));

  /** Reads and indexes the file's bytes past what `index` covers (all of it without one). */
  async function extend(path: string, index: FileIndex | undefined): Promise<FileIndex> {
    const now = await readHead(path);
    const current = index && index.ino === now.ino && now.size >= index.covered && now.head.startsWith(index.head.slice(0, now.head.length)) ? index : undefined;
    const base: FileIndex = current ?? { ino: now.ino, head: now.head, covered: 0, records: [] };
    if (now.size === base.covered) return base;
    const { lines, next } = await options.readLines(path, base.covered, options.maxReadBytes);
    const records = toIndexed(lines, next, options.toSpans(path, lines));
    return { ino: base.ino, head: base.head.length < HEAD_BYTES ? now.head : base.head, covered: next, records: appended(base.records, records) };
  }

  /**
   * Extends the index step by step (each at most maxReadBytes) until it covers the file or holds a
   * record past `toMs`: a fresh index of a big file must reach the event, not stop at its first step.
   */
  async function extendPast(path: string, known: FileIndex | undefined, toMs: number): Promise<FileIndex> {
    let index = await extend(path, known);
    for (;;) {
      const last = index.records.at(-1);
      if ((last && last.ms > toMs) || index.covered >= (await readHead(path)).size) return index;
      const before = index.covered;
      index = await extend(path, index);
      if (index.covered <= before) return index;
    }
  }

  /** One chain per file, so polls and queries extend it in order; a failed step is forgotten and retried. */
  function chain(path: string, step: (index: FileIndex | undefined) => Promise<FileIndex | undefined>): Promise<FileIndex | undefined> {
    const previous = indexes.get(path) ?? Promise.resolve(undefined);
    const next = previous.catch(() => undefined).then(step);
    indexes.set(path, next);
    next.catch(() => {
      if (indexes.get(path) === next) indexes.delete(path);
    });
    return next;
  }

  async function reread(path: string, record: IndexedRecord): Promise<FileLogRecord | undefined> {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(record.end - record.start);
      await handle.read(buffer, 0, buffer.length, record.start);
      const lines: FileLine[] = [];
      let cursor = 0;
      for (let nl = buffer.indexOf(10, cursor); cursor < buffer.length; nl = buffer.indexOf(10, cursor)) {
        const stop = nl === -1 ? buffer.length : nl;
        lines.push({ at: record.start + cursor, text: buffer.subarray(cursor, stop).toString('utf8').replace(/\r$/, '') });
        cursor = stop + 1;
      }
      return options.toSpans(path, lines)[0]?.record;
    } finally {
      await handle.close();
    }
  }

  return {
    /**
     * What a poll parsed of `path`, bytes [from, next): it extends the index when it starts where
     * the index ends (or the file's start), so the file is not parsed again for its windows.
     */
    learn(path: string, from: number, next: number, lines: FileLine[], spans: RecordSpan[]): void {
      if (next <= from) return;
      void chain(path, async (index) => {
        if (from === 0 && !index) {
          const now = await readHead(path);
          return { ino: now.ino, head: now.head, covered: next, records: toIndexed(lines, next, spans) };
        }
        if (!index || index.covered !== from) return index;
        return { ...index, covered: next, records: appended(index.records, toIndexed(lines, next, spans)) };
      }).catch(() => undefined);
    },
    /** The records of `paths` (in file order, then by time) the filter keeps, at most `limit`. */
    async query(paths: string[], filter: WindowFilter): Promise<FileLogRecord[]> {
      for (const path of indexes.keys()) if (!paths.includes(path)) indexes.delete(path);
      const kept: { path: string; record: IndexedRecord }[] = [];
      for (const path of paths) {
        const index = (await chain(path, (known) => extendPast(path, known, filter.toMs)))!;
        for (const record of index.records) {
          if (record.ms < filter.fromMs || record.ms > filter.toMs) continue;
          if (filter.keep(record)) kept.push({ path, record });
        }
      }
      // The same order a full parse gave: file order, stably sorted by time.
      const chosen = kept.sort((a, b) => a.record.time.localeCompare(b.record.time)).slice(0, filter.limit);
      const records = await Promise.all(chosen.map(({ path, record }) => reread(path, record)));
      return records.filter((r): r is FileLogRecord => r !== undefined);
    },
  };
}
