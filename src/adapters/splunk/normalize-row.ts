import { capText, ErrorEvent, type RawLogLine, type Severity } from '../../domain/event.js';
import { MESSAGE_FIELDS as RECORD_MESSAGE_FIELDS, pickField, recordText, stackOf } from '../../domain/log-record-fields.js';
import type { SplunkRow } from './export-stream.js';
import { parseIndexTime, parseSplunkTime } from './parse-splunk-time.js';

export interface NormalizeOptions {
  correlationFields: string[];
  sessionFields: string[];
  serviceFields: string[];
  idField?: string;
}

export type Normalized<T> = { ok: true; value: T; id: string; indexTime: number | undefined } | { ok: false; id: string; reason: string };

export const UNIDENTIFIED = 'splunk:?';
const MAX_RAW = 32_768;
const MAX_FIELDS = 64;
const LEVEL_FIELDS = ['level', 'severity', 'log_level', 'loglevel', 'status'];
const MESSAGE_FIELDS = ['message', 'msg', 'error_message'];
const CODE_FIELDS = ['errorCode', 'error_code', 'code'];

/** Multi-valued fields arrive as arrays; the first value stands for the field. */
function text(row: SplunkRow, field: string): string | undefined {
  const value = row[field];
  const first = Array.isArray(value) ? (value[0] as unknown) : value;
  return typeof first === 'string' && first !== '' ? first : undefined;
}

function pick(row: SplunkRow, fields: string[]): string | undefined {
  for (const field of fields) {
    const value = text(row, field);
    if (value !== undefined) return value;
  }
  return undefined;
}

export function severityOf(level: string | undefined): Severity {
  const l = (level ?? '').toLowerCase();
  if (/^\d{3}$/.test(l)) return Number(l) >= 500 ? 'error' : Number(l) >= 400 ? 'warning' : 'info';
  if (['fatal', 'critical', 'crit', 'emerg', 'emergency', 'alert', 'panic', 'severe'].includes(l)) return 'critical';
  if (['error', 'err', 'failed', 'failure'].includes(l)) return 'error';
  if (['warn', 'warning'].includes(l)) return 'warning';
  if (['debug', 'trace'].includes(l)) return 'debug';
  return l === '' ? 'error' : 'info';
}

const RANK: Severity[] = ['debug', 'info', 'warning', 'error', 'critical'];

/** The most severe of the level-like fields (`level=INFO status=500` is an error); none means error, as the search chose it. */
export function severityOfRow(row: SplunkRow): Severity {
  const found = LEVEL_FIELDS.flatMap((f) => { const v = text(row, f); return v ? [severityOf(v)] : []; });
  if (found.length === 0) return 'error';
  return found.reduce((a, b) => (RANK.indexOf(b) > RANK.indexOf(a) ? b : a));
}

/** The persistent identity: a configured guid field, or index + `_cd` (bucket id : offset). */
export function identityOf(row: SplunkRow, idField: string | undefined): string | undefined {
  if (idField) {
    const guid = text(row, idField);
    return guid ? `splunk:${guid.slice(0, 400)}` : undefined;
  }
  const index = text(row, 'index');
  const cd = text(row, '_cd');
  return index && cd ? `splunk:${index}:${cd}` : undefined;
}

function userFields(row: SplunkRow): Record<string, string> {
  const fields: Record<string, string> = {};
  let count = 0;
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith('_') || count >= MAX_FIELDS) continue;
    const joined = Array.isArray(value) ? value.filter((v) => typeof v === 'string').join(', ') : value;
    if (typeof joined !== 'string') continue;
    fields[key] = joined.slice(0, 4_096);
    count++;
  }
  return fields;
}

function correlationOf(row: SplunkRow, fields: string[]): Record<string, string> {
  return Object.fromEntries(fields.flatMap((f) => { const v = text(row, f); return v ? [[f, v.slice(0, 256)]] : []; }));
}

/** A `_raw` that is one JSON record (a structured logger's line), parsed; undefined otherwise. */
function jsonRecordOf(raw: string): Record<string, unknown> | undefined {
  if (!raw.startsWith('{') || raw.length > MAX_RAW * 2) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function common(row: SplunkRow, options: NormalizeOptions) {
  const _raw = typeof row._raw === 'string' ? row._raw : '';
  const time = parseSplunkTime(row._time) ?? parseSplunkTime(row._indextime);
  const level = pick(row, LEVEL_FIELDS);
  const record = jsonRecordOf(_raw);
  const message = pick(row, MESSAGE_FIELDS) ?? (record && pickField(record, RECORD_MESSAGE_FIELDS)) ?? _raw.split('\n', 1)[0] ?? '';
  // A structured record's stack (an extracted field, or a field of the JSON `_raw`) follows its
  // message on a line of its own: text inside the message never reads as a frame.
  const stack = stackOf(row) ?? (record && stackOf(record));
  const raw = record !== undefined || stack !== undefined ? recordText(message, stack) : _raw;
  return {
    raw,
    time,
    level,
    service: (pick(row, options.serviceFields) ?? 'unknown').slice(0, 128),
    message: capText(message, 16_384),
    correlationIds: correlationOf(row, options.correlationFields),
    sessionId: pick(row, options.sessionFields)?.slice(0, 256),
  };
}

/** A Splunk result becomes an ErrorEvent, or a reason it cannot; this never throws. */
export function normalizeRow(row: SplunkRow, options: NormalizeOptions): Normalized<ErrorEvent> {
  const id = identityOf(row, options.idField);
  if (!id) return { ok: false, id: UNIDENTIFIED, reason: options.idField ? `no ${options.idField} field to identify the event` : 'no index and _cd to identify the event' };
  const c = common(row, options);
  if (!c.time) return { ok: false, id, reason: `unreadable _time ${JSON.stringify(typeof row._time === 'string' ? row._time : typeof row._time).slice(0, 60)}` };
  if (c.raw === '' && c.message === '') return { ok: false, id, reason: 'empty event (no _raw and no message)' };
  const parsed = ErrorEvent.safeParse({
    id,
    source: 'splunk',
    time: c.time,
    service: c.service,
    severity: severityOfRow(row),
    message: c.message,
    // The whole multi-line event, stack trace included, capped with a marker.
    raw: capText(c.raw || c.message, MAX_RAW),
    errorCode: pick(row, CODE_FIELDS)?.slice(0, 128),
    correlationIds: c.correlationIds,
    sessionId: c.sessionId,
    fields: userFields(row),
  });
  if (!parsed.success) return { ok: false, id, reason: `invalid event: ${parsed.error.issues[0]?.message ?? 'unknown'}` };
  return { ok: true, value: parsed.data, id, indexTime: parseIndexTime(row._indextime) };
}

/** A Splunk result as a line of the log window (any level). */
export function toLogLine(row: SplunkRow, options: NormalizeOptions): RawLogLine | undefined {
  const c = common(row, options);
  if (!c.time) return undefined;
  return {
    sourceId: identityOf(row, options.idField) ?? `splunk:@${c.time}`,
    time: c.time,
    level: (c.level ?? 'INFO').toUpperCase(),
    service: c.service,
    message: capText(c.raw || c.message, MAX_RAW),
    correlationIds: c.correlationIds,
    ...(c.sessionId ? { sessionId: c.sessionId } : {}),
  };
}
