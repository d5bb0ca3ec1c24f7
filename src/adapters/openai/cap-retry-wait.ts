/**
 * The openai client sleeps for whatever `retry-after` / `retry-after-ms` a server asks, an hour
 * included, inside a job whose lock would expire meanwhile. This fetch wrapper tells the client
 * not to retry (`x-should-retry: false`) when the requested wait is over the cap, so the call fails
 * now with a coded error and the analysis degrades instead of stalling a worker.
 */
export const RETRY_WAIT_HEADER = 'x-medic-retry-wait-ms';

type Fetch = typeof fetch;

/** Milliseconds the server asks to wait, or undefined when it does not say. */
export function requestedWaitMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && !Number.isNaN(parseFloat(ms))) return parseFloat(ms);
  const after = headers.get('retry-after');
  if (after === null) return undefined;
  const seconds = parseFloat(after);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function createCappedRetryFetch(maxWaitMs: number, inner: Fetch = fetch): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.status !== 429 && response.status < 500) return response;
    const wait = requestedWaitMs(response.headers);
    if (wait === undefined || wait <= maxWaitMs) return response;
    const headers = new Headers(response.headers);
    headers.set('x-should-retry', 'false');
    headers.set(RETRY_WAIT_HEADER, String(Math.round(wait)));
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}
