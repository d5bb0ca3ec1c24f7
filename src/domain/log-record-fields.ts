/**
 * The fields of a structured (JSON) log record, as the common loggers name them. Pure.
 *
 * Read, each under the names its logger writes (first found wins):
 * - time: `time`, `timestamp`, `@timestamp` (Logstash, ECS), `ts`, `_time`, `@t` (Serilog CLEF), `asctime`
 *   (python-json-logger), `Timestamp` (Serilog's JSON formatter), `timeUnixNano` (OpenTelemetry)
 * - level: `level` (pino, bunyan: also their numeric 10–60), `levelname` (python-json-logger),
 *   `severity`, `log.level` (ECS), `@l` (CLEF), `severityText` (OpenTelemetry), `Level` (Serilog)
 * - message: `message`, `msg` (pino, bunyan), `@m` / `@mt` (CLEF), `RenderedMessage` / `MessageTemplate`
 *   (Serilog), `error`, `event` (structlog), `body` (OpenTelemetry)
 * - stack: `stack`, `err.stack` (pino, bunyan), `error.stack`, `exc_info` (python-json-logger),
 *   `exception` (structlog), `stack_trace` (logstash-logback-encoder), `error.stack_trace` (ECS),
 *   `exception.stacktrace` (OpenTelemetry, also under `attributes`), `@x` / `Exception` (Serilog)
 * - service: `service`, `service.name` (ECS, OpenTelemetry), `resource.service.name`, `app`, `application`
 *
 * A dotted name is read both as a literal key (`"log.level": …`) and as nested objects
 * (`{"log": {"level": …}}`). A logger's own name (`logger`, `logger_name`, `name`) is not a
 * service: a service's code logs under many logger names.
 */

export const TIME_FIELDS = ['time', 'timestamp', '@timestamp', 'ts', '_time', '@t', 'asctime', 'Timestamp', 'timeUnixNano'];
export const LEVEL_FIELDS = ['level', 'levelname', 'severity', 'log.level', '@l', 'severityText', 'Level', 'log_level', 'loglevel', 'status'];
export const MESSAGE_FIELDS = ['message', 'msg', '@m', 'RenderedMessage', '@mt', 'MessageTemplate', 'error', 'event', 'body'];
export const STACK_FIELDS = ['stack', 'err.stack', 'error.stack', 'exc_info', 'exception', 'stack_trace', 'error.stack_trace', 'exception.stacktrace', 'attributes.exception.stacktrace', '@x', 'Exception'];
export const SERVICE_FIELDS = ['service', 'service.name', 'resource.service.name', 'app', 'application'];

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A field's value by a possibly dotted name: the literal key, else a nested object under any
 * dotted prefix (`attributes.exception.stacktrace` is also `{"attributes": {"exception.stacktrace": …}}`).
 */
export function fieldOf(record: JsonRecord, name: string, depth = 0): unknown {
  if (Object.hasOwn(record, name)) return record[name];
  if (depth > 4) return undefined;
  for (let dot = name.indexOf('.'); dot > 0; dot = name.indexOf('.', dot + 1)) {
    const head = record[name.slice(0, dot)];
    if (!isRecord(head)) continue;
    const found = fieldOf(head, name.slice(dot + 1), depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first of `names` holding a non-empty string or a number, as text. */
export function pickField(record: JsonRecord, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = fieldOf(record, name);
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

/** pino's and bunyan's numeric levels. */
const NUMERIC_LEVELS: Record<string, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** The record's level as a word (`ERROR`), numeric pino/bunyan levels named. */
export function levelOf(record: JsonRecord): string | undefined {
  const level = pickField(record, LEVEL_FIELDS);
  if (level === undefined) return undefined;
  return (NUMERIC_LEVELS[level] ?? level).toUpperCase();
}

/** The stack trace the record carries in a field of its own (a string, or an array of lines). */
export function stackOf(record: JsonRecord): string | undefined {
  for (const name of STACK_FIELDS) {
    const value = fieldOf(record, name);
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) return value.join('\n');
  }
  return undefined;
}

/**
 * A structured record's text as Medic stores it (`raw`): its message on the first line, the stack
 * field after it. The message is kept to one line, so text inside it can never be read as a frame;
 * a stack that already starts with the message (a JavaScript `err.stack`) is the text itself.
 */
export function recordText(message: string, stack: string | undefined): string {
  const line = message.replace(/\r?\n|\r/g, ' ⏎ ');
  if (stack === undefined) return line;
  if (line === message && stack.startsWith(message)) return stack;
  return `${line}\n${stack}`;
}

/** String, number and boolean fields, nested objects as dotted names, capped in count and size. */
export function flatFields(record: JsonRecord, maxFields = 128, maxChars = 4_096): Record<string, string> {
  const fields: Record<string, string> = {};
  let count = 0;
  const walk = (at: JsonRecord, prefix: string, depth: number) => {
    for (const [key, value] of Object.entries(at)) {
      if (count >= maxFields) return;
      const name = prefix ? `${prefix}.${key}` : key;
      if (typeof value === 'string') fields[name] = value.length > maxChars ? value.slice(0, maxChars) : value;
      else if (typeof value === 'number' || typeof value === 'boolean') fields[name] = String(value);
      else if (isRecord(value) && depth < 3) { walk(value, name, depth + 1); continue; }
      else continue;
      count++;
    }
  };
  walk(record, '', 0);
  return fields;
}
