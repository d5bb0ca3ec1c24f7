import { isMedicError } from '../../domain/errors.js';

export interface RetryPolicy {
  retries: number;
  baseMs: number;
  maxMs?: number;
  random?: () => number;
  /** Once aborted, a failed attempt is not retried. */
  signal?: AbortSignal;
}

/** Retries transient coded errors with exponential backoff and jitter (half to full delay); others fail at once. */
export async function withRetry<T>(policy: RetryPolicy, attempt: () => Promise<T>): Promise<T> {
  const random = policy.random ?? Math.random;
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (n >= policy.retries || !isMedicError(error) || !error.transient || policy.signal?.aborted) throw error;
      const ceiling = Math.min(policy.maxMs ?? 30_000, policy.baseMs * 2 ** n);
      await new Promise((resolve) => setTimeout(resolve, Math.round(ceiling * (0.5 + random() / 2))));
    }
  }
}
