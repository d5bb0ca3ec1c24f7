/**
 * Upstream failures as each runtime words them. The texts are in the shape their libraries print
 * them: Node's system errors (nodejs.org/api/errors.html, "Common system errors"), urllib3/requests'
 * `Max retries exceeded … (Caused by NewConnectionError(…))`, Java's java.net exceptions and
 * Netty's `AnnotatedConnectException`, Go's net.OpError (`dial tcp …: connect: connection
 * refused`), .NET's SocketException, curl's error texts (curl.se/libcurl/c/libcurl-errors.html)
 * and nginx's error log (`connect() failed (111: Connection refused) while connecting to upstream`).
 */
import { describe, expect, it } from 'vitest';
import type { ErrorEvent } from '../../src/domain/event.js';
import { classifyUpstreamFailure, describeUpstreamFailure, upstreamFailureOf } from '../../src/domain/upstream-failure.js';

const cases: { source: string; text: string; kind: string; peer?: string }[] = [
  { source: 'Node net', text: 'connect ECONNREFUSED 10.2.0.14:8080', kind: 'connection refused', peer: '10.2.0.14:8080' },
  { source: 'Node net', text: 'Error: read ECONNRESET', kind: 'connection reset' },
  { source: 'Node net', text: 'connect ETIMEDOUT 52.1.2.3:443', kind: 'timed out', peer: '52.1.2.3:443' },
  { source: 'Node net', text: 'connect EHOSTUNREACH 10.9.0.7:5432', kind: 'host unreachable', peer: '10.9.0.7:5432' },
  { source: 'Node dns', text: 'getaddrinfo ENOTFOUND payments.internal', kind: 'name not resolved', peer: 'payments.internal' },
  { source: 'Node http', text: 'Error: socket hang up', kind: 'connection reset' },
  {
    source: 'Python requests',
    text: "requests.exceptions.ConnectionError: HTTPConnectionPool(host='inventory', port=8081): Max retries exceeded with url: /stock (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f3b2c>: Failed to establish a new connection: [Errno 111] Connection refused'))",
    kind: 'connection refused', peer: 'inventory:8081',
  },
  {
    source: 'Python requests',
    text: "requests.exceptions.ConnectTimeout: HTTPSConnectionPool(host='api.psp.example', port=443): Max retries exceeded with url: /v2/authorize (Caused by ConnectTimeoutError(<urllib3.connection.HTTPSConnection object at 0x7f3b2d>, 'Connection to api.psp.example timed out. (connect timeout=5)'))",
    kind: 'timed out', peer: 'api.psp.example:443',
  },
  { source: 'Python socket', text: 'ConnectionRefusedError: [Errno 111] Connection refused', kind: 'connection refused' },
  { source: 'Python socket', text: 'socket.gaierror: [Errno -2] Name or service not known', kind: 'name not resolved' },
  { source: 'Java', text: 'java.net.ConnectException: Connection refused (Connection refused)', kind: 'connection refused' },
  { source: 'Java', text: 'java.net.UnknownHostException: ledger.internal', kind: 'name not resolved', peer: 'ledger.internal' },
  { source: 'Java', text: 'java.net.SocketTimeoutException: connect timed out', kind: 'timed out' },
  { source: 'Netty', text: 'io.netty.channel.AbstractChannel$AnnotatedConnectException: Connection refused: orders/10.0.3.12:9090', kind: 'connection refused', peer: '10.0.3.12:9090' },
  { source: 'Go net/http', text: 'Get "http://catalog:8080/items": dial tcp 10.0.1.5:8080: connect: connection refused', kind: 'connection refused', peer: '10.0.1.5:8080' },
  { source: 'Go net', text: 'dial tcp: lookup redis-master on 10.96.0.10:53: no such host', kind: 'name not resolved', peer: 'redis-master' },
  { source: 'Go net', text: 'read tcp 10.0.0.4:51234->10.0.0.9:5432: read: connection reset by peer', kind: 'connection reset', peer: '10.0.0.9:5432' },
  { source: 'Go net/http', text: 'Post "https://psp.example/v2": context deadline exceeded (Client.Timeout exceeded while awaiting headers)', kind: 'timed out' },
  { source: '.NET', text: 'System.Net.Http.HttpRequestException: No connection could be made because the target machine actively refused it. (localhost:5001)', kind: 'connection refused', peer: 'localhost:5001' },
  { source: 'curl / PHP', text: 'cURL error 7: Failed to connect to billing port 8443: Connection refused', kind: 'connection refused', peer: 'billing:8443' },
  { source: 'curl / PHP', text: 'cURL error 6: Could not resolve host: api.partner.example', kind: 'name not resolved', peer: 'api.partner.example' },
  { source: 'Ruby', text: 'Errno::ECONNREFUSED: Failed to open TCP connection to search:9200 (Connection refused - connect(2) for "search" port 9200)', kind: 'connection refused', peer: 'search:9200' },
  {
    source: 'nginx',
    text: 'connect() failed (111: Connection refused) while connecting to upstream, client: 10.1.2.3, server: shop.example, request: "GET /cart HTTP/1.1", upstream: "http://10.2.0.14:8080/cart", host: "shop.example"',
    kind: 'connection refused', peer: '10.2.0.14:8080',
  },
  { source: 'nginx', text: 'upstream timed out (110: Connection timed out) while reading response header from upstream', kind: 'timed out' },
  { source: 'gateway', text: 'upstream error: 502 Bad Gateway', kind: '502 Bad Gateway' },
  { source: 'HTTP client', text: 'HTTPError: 503 Server Error: Service Unavailable for url: https://rates.example/v1', kind: '503 Service Unavailable' },
  { source: 'HTTP client', text: 'upstream answered 504 after 30000ms', kind: '504 Gateway Timeout' },
];

describe('upstream failures across runtimes', () => {
  for (const c of cases) {
    it(`${c.source}: ${c.kind}${c.peer ? ` (${c.peer})` : ''}`, () => {
      const failure = classifyUpstreamFailure([c.text]);
      expect(failure?.kind).toBe(c.kind);
      expect(failure?.peer).toBe(c.peer);
    });
  }

  it('is not every error: a crash in the code, a client error, a 500 of our own', () => {
    for (const text of [
      "TypeError: Cannot read properties of undefined (reading 'authorizationId')",
      'RangeError: page index 5 out of range [0, 4]',
      'POST /checkout status=500 duration_ms=337',
      'HTTPError: 404 Client Error: Not Found for url: https://api.example/v1/items/9',
      'java.lang.IllegalStateException: Connection pool shut down',
      'deadlock detected while waiting for ShareLock on transaction 1234',
    ]) expect(classifyUpstreamFailure([text]), text).toBeUndefined();
  });

  it('says which upstream refused: a 502 whose detail names the refused connection', () => {
    const event: Pick<ErrorEvent, 'message' | 'raw' | 'fields'> = {
      message: 'upstream error: 502 Bad Gateway',
      raw: 'upstream error: 502 Bad Gateway',
      fields: { requestId: 'req-7edee61b', upstream: 'shop:8080', errorCode: 'UPSTREAM_502', detail: 'connect ECONNREFUSED 10.2.0.14:8080', attempt: '1' },
    };
    const failure = upstreamFailureOf(event)!;
    expect(failure).toMatchObject({ kind: 'connection refused', peer: '10.2.0.14:8080' });
    expect(describeUpstreamFailure(failure)).toBe('Upstream failure: connection refused by 10.2.0.14:8080');
  });

  it('reads a Java cause chain, and names the peer from a field when the text names none', () => {
    const failure = upstreamFailureOf({
      message: 'order sync failed',
      raw: 'order sync failed\norg.springframework.web.client.ResourceAccessException: I/O error on GET request\n\tat com.acme.orders.OrderClient.fetch(OrderClient.java:42)\nCaused by: java.net.ConnectException: Connection refused\n\tat java.base/sun.nio.ch.Net.connect0(Native Method)',
      fields: { 'peer.address': 'orders-db:5432' },
    })!;
    expect(failure.kind).toBe('connection refused');
    expect(failure.peer).toBe('orders-db:5432');
  });

  it('never reads the words of a payload or of a frame as the failure', () => {
    const body = JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ sku: i })), note: 'connection refused by everyone' });
    expect(upstreamFailureOf({ message: `stock sync failed: unreadable body: ${body}`, raw: 'stock sync failed', fields: {} })).toBeUndefined();
    expect(upstreamFailureOf({ message: 'boom', raw: 'boom\nError: boom\n    at retryOnECONNREFUSED (/srv/app/src/net.ts:3:1)', fields: {} })).toBeUndefined();
  });
});
