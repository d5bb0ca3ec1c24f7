import type { ErrorEvent, RawLogLine } from '../domain/event.js';
import type { Checkable } from './service-check.js';

export interface PollResult {
  events: ErrorEvent[];
  /** Opaque; persisted by the poll job only after the events are durably enqueued. */
  checkpoint: string;
}

export interface WindowQuery {
  event: ErrorEvent;
  beforeMs: number;
  afterMs: number;
  limit: number;
}

/** How a caller bounds a read: an aborted signal cancels the request in flight (the HTTP request, for Splunk). */
export interface ReadOptions {
  signal?: AbortSignal;
}

/** Where errors come from (Splunk, or files under data/). Nothing else may know which. */
export interface LogSource extends Checkable {
  readonly name: string;
  /** The longest one read may take by the adapter's own configuration (connect + read timeout); the gateway's deadline for its reads. */
  readonly timeoutMs?: number;
  poll(checkpoint: string | undefined, options?: ReadOptions): Promise<PollResult>;
  /**
   * The same poll, with the events handed over in batches while the source still streams them;
   * the source reads no further until `onEvents` resolves. Events already handed over may come
   * again if the poll fails and is retried (consumers deduplicate by event id); the checkpoint is
   * returned, to be persisted, only once the whole result proved complete.
   */
  pollStream?(checkpoint: string | undefined, onEvents: (events: ErrorEvent[]) => Promise<void>): Promise<{ checkpoint: string; events: number }>;
  /** Log lines around the event, correlated to its transaction or session. */
  window(query: WindowQuery, options?: ReadOptions): Promise<RawLogLine[]>;
  /**
   * The earliest line of `service` at or after `sinceIso` containing `pattern` (literal text,
   * any case; see domain/log-line-pattern.ts), as a deploy marker; a bounded read.
   */
  findLine?(service: string, pattern: string, sinceIso: string, options?: ReadOptions): Promise<LogLineHit | undefined>;
}

export interface LogLineHit {
  /** ISO 8601. */
  at: string;
  line: string;
}
