import { capText, type RawLogLine, type Severity } from '../../domain/event.js';
import { clueFields, withClues } from '../../domain/log-clues.js';
import { recentMemo } from '../../domain/recent-memo.js';
import { flatFields, levelOf, MESSAGE_FIELDS, pickField, recordText, SERVICE_FIELDS, stackOf, TIME_FIELDS } from '../../domain/log-record-fields.js';

/** A log record read from a file, before it is judged an error or not. */
export interface FileLogRecord extends RawLogLine {
  raw: string;
  errorCode?: string;
  fields: Record<string, string>;
  /**
   * The record as evidence and log windows show it: `raw` with the clues kept — a plain line's
   * whole text after its header (its `key=value` fields included), a JSON record's clue fields
   * (`detail`, `cause`, `err.message`…) on its first line.
   */
  evidence: string;
}

const MAX_RAW = 32_768;
const SESSION_KEYS = ['sessionId', 'session_id', 'session'];

// `2026-11-30T10:00:00.123Z ERROR [checkout] message key=value …`
const PLAIN_HEADER = /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\s+([A-Za-z]+)\s+\[([^\]]{1,128})\]\s?(.*)$/;
const KEY_VALUE = /(?:^|\s)([A-Za-z_][\w.-]{0,63})=("[^"]*"|\S+)/g;

/**
 * The service a log file's records belong to when they name none: the file's name without its
 * extensions and rotation suffix (`logs/billing-api.jsonl.1` → `billing-api`).
 */
export function serviceOfFile(path: string): string {
  const name = path.split(/[\\/]/).pop() ?? path;
  const stem = name.replace(/(?:\.(?:\d+|gz|log|jsonl?|ndjson|txt|out|err))+$/i, '');
  return (stem || name).slice(0, 128) || 'unknown';
}

export function isPlainHeader(line: string): boolean {
  return PLAIN_HEADER.test(line);
}

export function severityOf(level: string): Severity {
  const l = level.toLowerCase();
  if (['fatal', 'critical', 'crit', 'emerg', 'alert', 'panic'].includes(l)) return 'critical';
  if (['error', 'err', 'severe'].includes(l)) return 'error';
  if (['warn', 'warning'].includes(l)) return 'warning';
  if (['debug', 'trace'].includes(l)) return 'debug';
  return 'info';
}

/** Already the form Medic stores: kept as it is once it is known to be a real instant. */
const CANONICAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Whether a `YYYY-MM-DD` is a real day: a storm's records share a few, each checked once. */
const realDay = recentMemo<boolean>(1_024);

/** A canonical time is a real instant when its day is real and its clock reads below 24:00:00. */
function isRealCanonical(value: string): boolean {
  const twoDigits = (at: number) => (value.charCodeAt(at) - 48) * 10 + value.charCodeAt(at + 1) - 48;
  return twoDigits(11) < 24 && twoDigits(14) < 60 && twoDigits(17) < 60 && realDay(value.slice(0, 10), () => {
    const ms = Date.parse(`${value.slice(0, 10)}T00:00:00.000Z`);
    // Date.parse accepts 2026-02-30 as March 2nd: the round trip tells a real date.
    return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(value.slice(0, 10));
  });
}

export function normalizeTime(value: string): string | undefined {
  if (CANONICAL_TIME.test(value) && isRealCanonical(value)) return value;
  const numeric = Number(value);
  // Epoch seconds, milliseconds, microseconds or nanoseconds (OpenTelemetry), told by magnitude.
  const epochMs = numeric < 1e12 ? numeric * 1000 : numeric < 1e15 ? numeric : numeric < 1e18 ? numeric / 1e3 : numeric / 1e6;
  const date = Number.isFinite(numeric) && value.trim() !== '' ? new Date(epochMs) : new Date(value.replace(' ', 'T').replace(',', '.'));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function correlationOf(fields: Record<string, string>, correlationFields: string[]): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const f of correlationFields) {
    const value = fields[f];
    if (value) ids[f] = value.length > 256 ? value.slice(0, 256) : value;
  }
  return ids;
}

/**
 * Parses one JSON-lines record; undefined (never a throw) for anything malformed. The fields are
 * read as the common JSON loggers name them (see log-record-fields.ts); a record naming no service
 * is `fallbackService`'s (the file's name).
 */
export function parseJsonRecord(line: string, sourceId: string, correlationFields: string[], fallbackService = 'unknown'): FileLogRecord | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const record = parsed as Record<string, unknown>;
  const time = normalizeTime(pickField(record, TIME_FIELDS) ?? '');
  const message = pickField(record, MESSAGE_FIELDS);
  if (!time || message === undefined) return undefined;
  const fields = flatFields(record);
  const raw = capText(recordText(message, stackOf(record)), MAX_RAW);
  return {
    sourceId,
    time,
    level: levelOf(record) ?? 'INFO',
    service: (pickField(record, SERVICE_FIELDS) ?? fallbackService).slice(0, 128),
    message: capText(message, 16_384),
    raw,
    evidence: capText(withClues(raw, clueFields(fields, raw)), MAX_RAW),
    errorCode: pickField(record, ['errorCode', 'error_code', 'code'])?.slice(0, 128),
    correlationIds: correlationOf(fields, correlationFields),
    sessionId: pickField(record, SESSION_KEYS)?.slice(0, 256),
    fields,
  };
}

/** Parses a plain entry: a header line plus any continuation lines (a stack trace). */
export function parsePlainRecord(text: string, sourceId: string, correlationFields: string[]): FileLogRecord | undefined {
  const newline = text.indexOf('\n');
  const header = newline === -1 ? text : text.slice(0, newline);
  const m = PLAIN_HEADER.exec(header);
  if (!m) return undefined;
  const time = normalizeTime(m[1] ?? '');
  if (!time) return undefined;
  const body = m[4] ?? '';
  const fields: Record<string, string> = {};
  for (const kv of body.matchAll(KEY_VALUE)) fields[kv[1] ?? ''] = (kv[2] ?? '').replace(/^"|"$/g, '').slice(0, 4_096);
  const message = body.replace(KEY_VALUE, '').trim() || body;
  return {
    sourceId,
    time,
    level: (m[2] ?? 'INFO').toUpperCase(),
    service: m[3] ?? 'unknown',
    message: capText(message, 16_384),
    raw: capText(newline === -1 ? message : `${message}${text.slice(newline)}`, MAX_RAW),
    evidence: capText(newline === -1 ? body : `${body}${text.slice(newline)}`, MAX_RAW),
    errorCode: fields.errorCode ?? fields.code,
    correlationIds: correlationOf(fields, correlationFields),
    sessionId: fields.sessionId ?? fields.session_id,
    fields,
  };
}
