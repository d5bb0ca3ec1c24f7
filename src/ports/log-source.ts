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

/** Where errors come from (Splunk, or files under data/). Nothing else may know which. */
export interface LogSource extends Checkable {
  readonly name: string;
  poll(checkpoint: string | undefined): Promise<PollResult>;
  /**
   * The same poll, with the events handed over in batches while the source still streams them;
   * the source reads no further until `onEvents` resolves. Events already handed over may come
   * again if the poll fails and is retried (consumers deduplicate by event id); the checkpoint is
   * returned, to be persisted, only once the whole result proved complete.
   */
  pollStream?(checkpoint: string | undefined, onEvents: (events: ErrorEvent[]) => Promise<void>): Promise<{ checkpoint: string; events: number }>;
  /** Log lines around the event, correlated to its transaction or session. */
  window(query: WindowQuery): Promise<RawLogLine[]>;
}
