import { z } from 'zod';

export const Severity = z.enum(['critical', 'error', 'warning', 'info', 'debug']);
export type Severity = z.infer<typeof Severity>;

/**
 * One error as a log source reports it, normalized. `id` is the source's persistent identity
 * (Splunk's index + _cd, a file's path + offset) and is what dedupe keys on.
 */
export const ErrorEvent = z.object({
  id: z.string().min(1).max(512),
  source: z.string().min(1).max(64),
  time: z.string().datetime({ offset: true }),
  service: z.string().min(1).max(128),
  severity: Severity,
  message: z.string().max(16_384),
  /** Full raw text, a stack trace included; capped with a marker by the source. */
  raw: z.string().max(65_536),
  errorCode: z.string().max(128).optional(),
  correlationIds: z.record(z.string(), z.string().max(256)).default({}),
  sessionId: z.string().max(256).optional(),
  fields: z.record(z.string(), z.string().max(4_096)).default({}),
});
export type ErrorEvent = z.infer<typeof ErrorEvent>;

/** One line of the evidence window. `id` (`log-0`, `log-1`…) is what the RCA cites. */
export const LogEntry = z.object({
  id: z.string(),
  time: z.string(),
  level: z.string(),
  service: z.string(),
  message: z.string(),
  sourceId: z.string().optional(),
});
export type LogEntry = z.infer<typeof LogEntry>;

export const LogBundle = z.object({
  entries: z.array(LogEntry),
  from: z.string(),
  to: z.string(),
  /** Why the window is thin or missing, when it is; shown to the analyst and on the card. */
  note: z.string().optional(),
});
export type LogBundle = z.infer<typeof LogBundle>;

/** A log line as a source reads it, before it is numbered into a window. */
export interface RawLogLine {
  sourceId: string;
  time: string;
  level: string;
  service: string;
  message: string;
  correlationIds: Record<string, string>;
  sessionId?: string;
}

/** Cap a text at `max` characters with an explicit marker saying how much was cut. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = `\n…[truncated ${text.length - max} chars]`;
  return text.slice(0, Math.max(0, max - marker.length)) + marker;
}
