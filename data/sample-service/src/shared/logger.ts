import { AsyncLocalStorage } from 'node:async_hooks';

/** JSON-lines logger; the log shipper forwards stdout to Splunk as-is. */
export type Level = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
export type Fields = Record<string, string | number | boolean | undefined>;

export interface Logger {
  debug(message: string, fields?: Fields): void;
  info(message: string, fields?: Fields): void;
  warn(message: string, fields?: Fields): void;
  error(message: string, fields?: Fields, err?: unknown): void;
  child(fields: Fields): Logger;
}

const ORDER: Record<Level, number> = { DEBUG: 10, INFO: 20, WARN: 30, ERROR: 40 };
const context = new AsyncLocalStorage<Fields>();

/** Runs `fn` with fields that every line logged inside it carries (request id, session). */
export function withLogContext<T>(fields: Fields, fn: () => T): T {
  return context.run({ ...fields }, fn);
}

/** Adds to the current request's log context once a value is known (order number, txn id). */
export function addLogContext(fields: Fields): void {
  const store = context.getStore();
  if (store) Object.assign(store, fields);
}

export interface LoggerOptions {
  service: string;
  level?: Level;
  write?: (line: string) => void;
  now?: () => Date;
}

export function createLogger(options: LoggerOptions, base: Fields = {}): Logger {
  const min = ORDER[options.level ?? 'INFO'];
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const now = options.now ?? (() => new Date());

  function emit(level: Level, message: string, fields: Fields = {}, err?: unknown): void {
    if (ORDER[level] < min) return;
    const record: Record<string, unknown> = { time: now().toISOString(), level, service: options.service, message, ...context.getStore(), ...base, ...fields };
    if (err instanceof Error) {
      record.stack = err.stack;
      record.errorCode ??= (err as { code?: string }).code ?? 'E_INTERNAL';
    }
    write(JSON.stringify(record));
  }

  return {
    debug: (message, fields) => emit('DEBUG', message, fields),
    info: (message, fields) => emit('INFO', message, fields),
    warn: (message, fields) => emit('WARN', message, fields),
    error: (message, fields, err) => emit('ERROR', message, fields, err),
    child: (fields) => createLogger(options, { ...base, ...fields }),
  };
}
