import { ErrorEvent } from '../../domain/event.js';
import { isPlainHeader, parseJsonRecord, parsePlainRecord, severityOf, type FileLogRecord } from '../../adapters/file-logs/parse-entry.js';

export interface ReplayRecord {
  /** 1-based line of the record's first line in the file. */
  line: number;
  event?: ErrorEvent;
  problem?: string;
}

/**
 * The records of a replay file, in order, in the formats the file log source reads: JSON lines
 * (`time`, `level`, `service`, `message` at least), plain lines (`<iso time> LEVEL [service] text`,
 * continuation lines folded in as the stack trace), and Medic's own error events (a JSON array or
 * lines of them). Every record is replayed whatever its level: the file is what the operator chose.
 */
export function readReplayRecords(text: string, source: string, correlationFields: string[]): ReplayRecord[] {
  if (text.trimStart().startsWith('[')) return fromArray(text);
  const records: ReplayRecord[] = [];
  let pending: { line: number; at: number; text: string } | undefined;
  const flush = () => {
    if (!pending) return;
    const record = parsePlainRecord(pending.text, `${source}@${pending.at}`, correlationFields);
    records.push(record ? toEvent(record, pending.line) : { line: pending.line, problem: 'not a log entry (expected "<ISO time> LEVEL [service] message")' });
    pending = undefined;
  };
  let at = 0;
  text.split('\n').forEach((raw, i) => {
    const lineText = raw.replace(/\r$/, '');
    const offset = at;
    at += Buffer.byteLength(raw, 'utf8') + 1;
    if (lineText.trim() === '') return;
    if (lineText.trimStart().startsWith('{')) {
      flush();
      records.push(fromJsonLine(lineText, `${source}@${offset}`, i + 1, correlationFields));
    } else if (isPlainHeader(lineText)) {
      flush();
      pending = { line: i + 1, at: offset, text: lineText };
    } else if (pending) {
      pending.text += `\n${lineText}`;
    } else {
      records.push({ line: i + 1, problem: 'a continuation line without an entry before it' });
    }
  });
  flush();
  return records;
}

function fromArray(text: string): ReplayRecord[] {
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch (error) {
    return [{ line: 1, problem: `the JSON array does not parse: ${(error as Error).message}` }];
  }
  if (!Array.isArray(rows)) return [{ line: 1, problem: 'expected a JSON array of events' }];
  return rows.map((row, i) => {
    const own = asErrorEvent(row, i + 1);
    if (own) return own;
    const record = row && typeof row === 'object' ? parseJsonRecord(JSON.stringify(row), `array@${i}`, []) : undefined;
    return record ? toEvent(record, i + 1) : { line: i + 1, problem: 'not an event (needs time and message, or a full Medic error event)' };
  });
}

function fromJsonLine(line: string, sourceId: string, lineNo: number, correlationFields: string[]): ReplayRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { line: lineNo, problem: 'malformed JSON' };
  }
  const own = asErrorEvent(parsed, lineNo);
  if (own) return own;
  const record = parseJsonRecord(line, sourceId, correlationFields);
  return record ? toEvent(record, lineNo) : { line: lineNo, problem: 'a JSON record needs a time and a message' };
}

function asErrorEvent(row: unknown, line: number): ReplayRecord | undefined {
  if (!row || typeof row !== 'object' || !('id' in row) || !('source' in row)) return undefined;
  const parsed = ErrorEvent.safeParse(row);
  if (parsed.success) return { line, event: parsed.data };
  return { line, problem: parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ') };
}

function toEvent(record: FileLogRecord, line: number): ReplayRecord {
  const parsed = ErrorEvent.safeParse({
    id: `replay:${record.sourceId}`, source: 'replay', time: record.time, service: record.service, severity: severityOf(record.level),
    message: record.message, raw: record.raw, errorCode: record.errorCode, correlationIds: record.correlationIds, sessionId: record.sessionId, fields: record.fields,
  });
  return parsed.success ? { line, event: parsed.data } : { line, problem: parsed.error.issues[0]?.message ?? 'invalid event' };
}
