import type { EventRate } from '../domain/event-rate.js';
import type { ChatImage } from './chat.js';

export interface RateChartInput {
  /** The incident's title (log text: the adapter redacts and clips it). */
  title: string;
  rate: EventRate;
  /** ISO times of the fix's deploy and merge, marked on the chart. */
  deployedAt?: string;
  mergedAt?: string;
  /** The quiet window after the deploy (its end is marked). */
  windowMinutes: number;
  nowMs: number;
}

/** Draws a family's events per minute before and after its fix was deployed, as a PNG for the thread. */
export interface RateChart {
  render(input: RateChartInput): Promise<ChatImage>;
}
