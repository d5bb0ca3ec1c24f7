import { open, stat } from 'node:fs/promises';
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
  size: number;
  mtimeMs: number;
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

/**
 * Log windows over files without re-parsing them per query: each file is parsed once per
 * (size, mtime) into a compact index of time, service, session and correlation ids, and a
 * query re-reads only the records it keeps. The 20 analyses of a storm then share one parse of
 * the storm's files instead of twenty.
 */
export function createWindowIndex(options: WindowIndexOptions) {
  const indexes = new Map<string, Promise<FileIndex>>();
  const versions = new Map<string, { size: number; mtimeMs: number }>();

  async function build(path: string, info: { size: number; mtimeMs: number }): Promise<FileIndex> {
    const { lines, next } = await options.readLines(path, 0, options.maxReadBytes);
    const records = options.toSpans(path, lines).map(({ record, first, end }): IndexedRecord => ({
      time: record.time,
      ms: Date.parse(record.time),
      service: record.service,
      ...(record.sessionId === undefined ? {} : { sessionId: record.sessionId }),
      ids: Object.values(record.correlationIds),
      start: lines[first]?.at ?? 0,
      end: lines[end]?.at ?? next,
    }));
    return { size: info.size, mtimeMs: info.mtimeMs, records };
  }

  async function indexOf(path: string): Promise<FileIndex> {
    const info = await stat(path);
    const known = versions.get(path);
    const cached = indexes.get(path);
    if (cached && known && known.size === info.size && known.mtimeMs === info.mtimeMs) return cached;
    const fresh = build(path, info);
    versions.set(path, { size: info.size, mtimeMs: info.mtimeMs });
    indexes.set(path, fresh);
    // A failed build is not kept: the next query tries again.
    fresh.catch(() => {
      if (indexes.get(path) === fresh) {
        indexes.delete(path);
        versions.delete(path);
      }
    });
    return fresh;
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
    /** The records of `paths` (in file order, then by time) the filter keeps, at most `limit`. */
    async query(paths: string[], filter: WindowFilter): Promise<FileLogRecord[]> {
      for (const path of indexes.keys()) if (!paths.includes(path)) {
        indexes.delete(path);
        versions.delete(path);
      }
      const kept: { path: string; record: IndexedRecord }[] = [];
      for (const path of paths) {
        const index = await indexOf(path);
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
