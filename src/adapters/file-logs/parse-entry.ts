import { capText, type RawLogLine, type Severity } from '../../domain/event.js';

/** A log record read from a file, before it is judged an error or not. */
export interface FileLogRecord extends RawLogLine {
  raw: string;
  errorCode?: string;
  fields: Record<string, string>;
}

const MAX_RAW = 32_768;
const TIME_KEYS = ['time', 'timestamp', '@timestamp', 'ts', '_time'];
const LEVEL_KEYS = ['level', 'severity', 'status', 'log_level'];
const SERVICE_KEYS = ['service', 'app', 'application', 'logger', 'host'];
const MESSAGE_KEYS = ['message', 'msg', 'error', 'event'];
const SESSION_KEYS = ['sessionId', 'session_id', 'session'];

// `2026-11-30T10:00:00.123Z ERROR [checkout] message key=value …`
const PLAIN_HEADER = /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\s+([A-Za-z]+)\s+\[([^\]]{1,128})\]\s?(.*)$/;
const KEY_VALUE = /(?:^|\s)([A-Za-z_][\w.-]{0,63})=("[^"]*"|\S+)/g;

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

export function normalizeTime(value: string): string | undefined {
  if (CANONICAL_TIME.test(value)) {
    const ms = Date.parse(value);
    // Date.parse accepts 2026-02-30 as March 2nd: the round trip tells a real date.
    if (!Number.isNaN(ms) && new Date(ms).toISOString() === value) return value;
  }
  const numeric = Number(value);
  const date = Number.isFinite(numeric) && value.trim() !== '' ? new Date(numeric < 1e12 ? numeric * 1000 : numeric) : new Date(value.replace(' ', 'T').replace(',', '.'));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function pick(record: Record<string, unknown>, keys: string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}

function correlationOf(fields: Record<string, string>, correlationFields: string[]): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const f of correlationFields) {
    const value = fields[f];
    if (value) ids[f] = value.length > 256 ? value.slice(0, 256) : value;
  }
  return ids;
}

/** Parses one JSON-lines record; undefined (never a throw) for anything malformed. */
export function parseJsonRecord(line: string, sourceId: string, correlationFields: string[]): FileLogRecord | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const record = parsed as Record<string, unknown>;
  const time = normalizeTime(pick(record, TIME_KEYS) ?? '');
  const message = pick(record, MESSAGE_KEYS);
  if (!time || message === undefined) return undefined;
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(record)) {
    if (typeof v === 'string') fields[k] = v.length > 4_096 ? v.slice(0, 4_096) : v;
    else if (typeof v === 'number' || typeof v === 'boolean') fields[k] = String(v);
  }
  const stack = typeof record.stack === 'string' ? record.stack : '';
  return {
    sourceId,
    time,
    level: (pick(record, LEVEL_KEYS) ?? 'INFO').toUpperCase(),
    service: (pick(record, SERVICE_KEYS) ?? 'unknown').slice(0, 128),
    message: capText(message, 16_384),
    raw: capText(stack && !stack.includes(message) ? `${message}\n${stack}` : stack || message, MAX_RAW),
    errorCode: pick(record, ['errorCode', 'error_code', 'code'])?.slice(0, 128),
    correlationIds: correlationOf(fields, correlationFields),
    sessionId: pick(record, SESSION_KEYS)?.slice(0, 256),
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
    errorCode: fields.errorCode ?? fields.code,
    correlationIds: correlationOf(fields, correlationFields),
    sessionId: fields.sessionId ?? fields.session_id,
    fields,
  };
}
