import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/** Slack's own bound (REFERENCE §2.1): a signed request older or newer than this is refused. */
export const MAX_CLOCK_SKEW_S = 5 * 60;

/**
 * True when the request's `X-Slack-Request-Timestamp` lies in the future by more than the bound.
 * Bolt refuses stale timestamps only; a request dated ahead would stay replayable until its date
 * plus five minutes, so the other direction is refused here. Pure: the clock is a parameter.
 */
export function isDatedInFuture(header: string | string[] | undefined, nowMs: number, maxSkewS = MAX_CLOCK_SKEW_S): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,12}$/.test(value.trim())) return false; // missing or malformed: Bolt answers 401
  return Number(value) - nowMs / 1000 > maxSkewS;
}

/**
 * Wraps Bolt's HTTP request listener so a future-dated request gets the same answer as any other
 * unverifiable one — 401 with an empty body — before the body is read or a listener runs.
 */
export function refuseFutureDated(inner: RequestListener, now: () => number = Date.now): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST' && isDatedInFuture(req.headers['x-slack-request-timestamp'], now())) {
      req.resume();
      res.writeHead(401);
      res.end();
      return;
    }
    inner(req, res);
  };
}
