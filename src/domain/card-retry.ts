import { isMedicError } from './errors.js';

export interface CardRetryPolicy {
  /** The first retry's delay; each further one doubles it. */
  minMs: number;
  /** The longest gap between two tries: an operator fixing a channel overnight still gets the card. */
  maxMs: number;
}

/**
 * When to try a card again after `attemptsMade` failed tries. Slack's Retry-After (or the pacer's
 * wait) is the delay when it said one, with up to 20% jitter so a storm's cards do not return in one
 * burst; otherwise exponential from `minMs`, capped at `maxMs`. `random` is a parameter for tests.
 */
export function cardRetryDelayMs(attemptsMade: number, error: unknown, policy: CardRetryPolicy, random: () => number = Math.random): number {
  const jitter = 1 + random() * 0.2;
  const told = isMedicError(error) ? error.retryAfterMs : undefined;
  if (told !== undefined) return Math.min(policy.maxMs, Math.round(told * jitter));
  const exponent = Math.min(Math.max(attemptsMade - 1, 0), 40);
  return Math.min(policy.maxMs, Math.round(policy.minMs * 2 ** exponent * jitter));
}
