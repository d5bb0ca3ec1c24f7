import type { ErrorEvent } from './event.js';
import { parseStackTrace, traceShapeKey, type ParsedTrace } from './stack-trace.js';

type EventText = Pick<ErrorEvent, 'raw' | 'message'>;

/**
 * The trace of an event as a log source recorded it: the record's first line is its message
 * (which may name the exception but never supplies a frame), the lines after it its stack.
 */
export function eventTrace(event: EventText): ParsedTrace {
  return parseStackTrace(event.raw || event.message, { recordHeader: true });
}

/** `traceShapeKey` of the same text, read the same way. */
export function eventTraceShape(event: EventText): string {
  return traceShapeKey(event.raw || event.message, { recordHeader: true });
}
