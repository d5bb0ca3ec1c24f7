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
  /** Log lines around the event, correlated to its transaction or session. */
  window(query: WindowQuery): Promise<RawLogLine[]>;
}
