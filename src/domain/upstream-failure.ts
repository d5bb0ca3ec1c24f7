/**
 * Upstream failures: an error that says a service Medic watches could not reach another one —
 * the peer refused, reset or never answered the connection, its name did not resolve, or a gateway
 * answered 502/503/504 for it. The code that logged it is where the failure surfaced, not where
 * it started: such an incident names the upstream instead of a suspect file, and gets no revert.
 *
 * The class is told the way each runtime words it: Node's `ECONNREFUSED`/`ECONNRESET`/
 * `ETIMEDOUT`/`EHOSTUNREACH`/`ENOTFOUND`, Python's `ConnectionRefusedError`, requests' and httpx's
 * `ConnectionError`/`ConnectTimeout`, Java's `ConnectException`/`UnknownHostException`/
 * `SocketTimeoutException`, Go's `dial tcp …: connect: connection refused` and `no such host`,
 * .NET's `SocketException`, curl's `Failed to connect to … port …`, nginx's `connect() failed
 * (111: Connection refused) while connecting to upstream`. Read from the event's own message,
 * exception lines and clue fields, never from its neighbours or its frames. Pure; every pattern
 * is linear.
 */
import type { ErrorEvent } from './event.js';
import { eventTrace } from './event-trace.js';
import { informativeText } from './informative-text.js';
import { clueFields } from './log-clues.js';

export type UpstreamFailureKind =
  | 'connection refused'
  | 'connection reset'
  | 'timed out'
  | 'host unreachable'
  | 'name not resolved'
  | 'connection failed'
  | '502 Bad Gateway'
  | '503 Service Unavailable'
  | '504 Gateway Timeout';

export interface UpstreamFailure {
  kind: UpstreamFailureKind;
  /** The peer the text names (`10.2.0.14:8080`, `payments.internal`), when it names one. */
  peer?: string;
  /** The text that says so, one line, capped. */
  cue: string;
}

/** Most specific first: a 502 whose detail says ECONNREFUSED is a refused connection. */
const KINDS: [UpstreamFailureKind, RegExp][] = [
  ['connection refused', /\bECONNREFUSED\b|connection refused|actively refused|ConnectionRefusedError|no live upstreams/i],
  ['connection reset', /\bECONNRESET\b|connection reset|reset by peer|socket hang up|ConnectionResetError|RemoteDisconnected|prematurely closed connection|\bEPIPE\b|broken pipe/i],
  ['host unreachable', /\bE(?:HOST|NET)UNREACH\b|no route to host|(?:host|network) is unreachable|NoRouteToHostException/i],
  ['name not resolved', /\bENOTFOUND\b|\bEAI_AGAIN\b|UnknownHostException|no such host|Name or service not known|nodename nor servname|failure in name resolution|Could not resolve host|NameResolutionError|Name does not resolve|DNS lookup failed/i],
  ['timed out', /\bE(?:SOCKET)?TIMEDOUT\b|connect(?:ion)? timed out|ConnectTimeout(?:Error|Exception)?\b|upstream timed out|i\/o timeout|SocketTimeoutException|Read timed out|ReadTimeout(?:Error)?\b|Client\.Timeout exceeded|HttpRequestTimeoutException/i],
  ['connection failed', /\bConnect(?:ion)?(?:Exception|Error)\b|connect\(\) failed|Failed to (?:open TCP connection|establish a new connection|connect to)|could not connect to/i],
  ['502 Bad Gateway', /\bBad Gateway\b|\bupstream\b[^\n]{0,40}\b502\b|\b502\b[^\n]{0,40}\bupstream\b/i],
  ['503 Service Unavailable', /\bService (?:Temporarily )?Unavailable\b|\bupstream\b[^\n]{0,40}\b503\b|\b503\b[^\n]{0,40}\bupstream\b/i],
  ['504 Gateway Timeout', /\bGateway Time-?out\b|\bupstream\b[^\n]{0,40}\b504\b|\b504\b[^\n]{0,40}\bupstream\b/i],
];

const HOST = String.raw`(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:]{2,39}\]|[A-Za-z][\w-]{0,62}(?:\.[\w-]{1,63}){0,8})`;
/** Where each runtime names the peer, most explicit first. */
const PEERS: RegExp[] = [
  /host='([^'\s]{1,253})', port=(\d{1,5})/, // urllib3 / requests
  new RegExp(String.raw`upstream: "(?:[a-z]+://)?(${HOST}(?::\d{1,5})?)`), // nginx error log
  new RegExp(String.raw`dial (?:tcp|udp)[46]? (${HOST}:\d{1,5})`), // Go net
  new RegExp(String.raw`(?:read|write) (?:tcp|udp)[46]? [^\s>]{1,64}->(${HOST}:\d{1,5})`), // Go net: local->remote
  new RegExp(String.raw`(?:lookup|resolve host:?|ENOTFOUND|EAI_AGAIN|UnknownHostException:) (${HOST})`, 'i'),
  new RegExp(String.raw`(?:to|for "?) ?(${HOST}) port (\d{1,5})`), // curl, Ruby
  new RegExp(String.raw`(?:^|[\s(/"'=@])(${HOST}:\d{2,5})\b`),
];
/** Fields that name the peer when the text does not. */
const PEER_FIELDS = ['upstream', 'upstream_addr', 'upstream.address', 'peer', 'peer.address', 'server.address', 'net.peer.name', 'destination.address', 'target'];
const MAX_CUE = 200;

function peerIn(text: string): string | undefined {
  for (const pattern of PEERS) {
    const m = pattern.exec(text);
    if (m?.[1]) return m[2] ? `${m[1]}:${m[2]}` : m[1];
  }
  return undefined;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= MAX_CUE ? line : `${line.slice(0, MAX_CUE - 1)}…`;
}

/** The first kind any of `texts` shows, the kinds tried most specific first, with the peer its text names. */
export function classifyUpstreamFailure(texts: readonly string[], fields: Record<string, string> = {}): UpstreamFailure | undefined {
  const lines = texts.map((t) => informativeText(t)).filter((t) => t.trim() !== '');
  for (const [kind, pattern] of KINDS) {
    const hit = lines.find((line) => pattern.test(line));
    if (hit === undefined) continue;
    const peer = peerIn(hit) ?? lines.map(peerIn).find(Boolean) ?? PEER_FIELDS.map((f) => fields[f]).find((v) => v !== undefined && v.trim() !== '');
    return { kind, cue: oneLine(hit), ...(peer ? { peer: peer.slice(0, 260) } : {}) };
  }
  return undefined;
}

/** The event's own texts: its message, each exception line of its trace, its clue fields. */
export function upstreamFailureOf(event: Pick<ErrorEvent, 'message' | 'raw' | 'fields'>): UpstreamFailure | undefined {
  const trace = eventTrace(event);
  const exceptions = trace.exceptions.map((e) => (e.message ? `${e.exceptionType}: ${e.message}` : e.exceptionType));
  const clues = clueFields(event.fields).map(([, value]) => value);
  return classifyUpstreamFailure([event.message.split('\n', 1)[0] ?? '', ...exceptions, ...clues], event.fields);
}

/** "Upstream failure: connection refused by 10.2.0.14:8080". */
export function describeUpstreamFailure(failure: UpstreamFailure): string {
  const peer = failure.peer;
  switch (failure.kind) {
    case 'connection refused': return `Upstream failure: connection refused by ${peer ?? 'the upstream'}`;
    case 'connection reset': return `Upstream failure: connection reset by ${peer ?? 'the upstream'}`;
    case 'host unreachable': return `Upstream failure: ${peer ?? 'the upstream host'} unreachable`;
    case 'name not resolved': return `Upstream failure: name ${peer ? `${peer} ` : ''}not resolved (DNS)`;
    case 'timed out': return `Upstream failure: timed out waiting for ${peer ?? 'the upstream'}`;
    case 'connection failed': return `Upstream failure: could not connect to ${peer ?? 'the upstream'}`;
    default: return `Upstream failure: ${peer ? `${peer} answered` : 'the upstream answered'} ${failure.kind}`;
  }
}
