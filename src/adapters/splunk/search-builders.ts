import type { WindowQuery } from '../../ports/log-source.js';
import type { NormalizeOptions } from './normalize-row.js';
import type { SplunkCheckpoint } from './poll-checkpoint.js';
import type { SearchRequest } from './splunk-client.js';
import { anyOf, buildSearch, quoteSpl, term } from './spl.js';

export interface PollBounds {
  overlapS: number;
  lookbackS: number;
  maxAgeS: number;
  maxEvents: number;
}

/**
 * The poll filters on index time, not event time, so an event that arrives late (an old `_time`
 * indexed now) is still found; the overlap re-reads what may not have been searchable yet at the
 * last poll. Event time is bounded only loosely (maxAge) so Splunk can skip old buckets. Sorting
 * on `_indextime` before `head` makes a capped poll resume exactly where it stopped.
 */
export function buildPollSearch(base: { head: string; tail: string }, checkpoint: SplunkCheckpoint, b: PollBounds): SearchRequest {
  if (checkpoint.indexTime === undefined) {
    return {
      search: buildSearch(base, [`_index_earliest=-${b.lookbackS}s`], ['sort 0 _indextime', `head ${b.maxEvents}`]),
      earliestTime: `-${b.lookbackS + b.maxAgeS}s`,
    };
  }
  const from = Math.max(0, Math.floor(Math.max(checkpoint.indexTime - b.overlapS, checkpoint.floor ?? 0)));
  const indexEarliest = String(from);
  const earliestTime = String(Math.max(0, from - b.maxAgeS));
  return {
    search: buildSearch(base, [`_index_earliest=${indexEarliest}`], ['sort 0 _indextime', `head ${b.maxEvents}`]),
    earliestTime,
  };
}

/**
 * Lines around the event that share its transaction (any correlation id in any correlation field),
 * or its service when it has none, and its session when it has one (lines that carry no session
 * still count). Every interpolated value is quoted.
 */
export function buildWindowSearch(base: { head: string; tail: string }, query: WindowQuery, o: NormalizeOptions): SearchRequest {
  const at = Date.parse(query.event.time);
  const ids = [...new Set(Object.values(query.event.correlationIds))];
  const scope = ids.length > 0
    ? anyOf(ids.flatMap((id) => o.correlationFields.map((field) => term(field, id))))
    : anyOf(o.serviceFields.map((field) => term(field, query.event.service)));
  const session = query.event.sessionId;
  const sessionScope = session === undefined || o.sessionFields.length === 0
    ? ''
    : anyOf([...o.sessionFields.map((field) => term(field, session)), `(${o.sessionFields.map((f) => `NOT ${f}=*`).join(' ')})`]);
  return {
    search: buildSearch(base, [scope, sessionScope], [`head ${query.limit}`, 'sort 0 _time']),
    earliestTime: ((at - query.beforeMs) / 1000).toFixed(3),
    latestTime: ((at + query.afterMs + 1) / 1000).toFixed(3),
  };
}

/** Rows a deploy-marker search reads at most: the earliest few lines with the text. */
export const LINE_CANDIDATES = 20;

/**
 * The service's lines since `sinceMs` containing the pattern, earliest first: the pattern is one
 * quoted term (literal text), the service any of its fields, and the read is capped.
 */
export function buildLineSearch(base: { head: string; tail: string }, service: string, pattern: string, sinceMs: number, o: NormalizeOptions): SearchRequest {
  return {
    search: buildSearch(base, [anyOf(o.serviceFields.map((field) => term(field, service))), quoteSpl(pattern)], ['sort 0 _time', `head ${LINE_CANDIDATES}`]),
    earliestTime: (sinceMs / 1000).toFixed(3),
  };
}
