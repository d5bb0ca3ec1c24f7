/** Retries for calls to the payment gateway: only transient failures, exponential backoff, full jitter. */
export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  isRetryable: (err: unknown) => boolean;
}

export type Sleep = (ms: number) => Promise<void>;

const sleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Timeouts, 429 and 5xx are worth another try; a bug or a 4xx is not. */
export function isTransient(err: unknown): boolean {
  if (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError')) return true;
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && (status === 429 || status >= 500);
}

export function defaultRetryPolicy(maxAttempts = 3): RetryPolicy {
  return { maxAttempts, baseDelayMs: 100, maxDelayMs: 2_000, isRetryable: isTransient };
}

export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

export async function withRetry<T>(
  policy: RetryPolicy,
  operation: (attempt: number) => Promise<T>,
  onRetry: (err: unknown, attempt: number, delayMs: number) => void = () => {},
  wait: Sleep = sleep,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation(attempt);
    } catch (err) {
      if (attempt >= policy.maxAttempts || !policy.isRetryable(err)) throw err;
      const delay = backoffMs(policy, attempt);
      onRetry(err, attempt, delay);
      await wait(delay);
    }
  }
}
