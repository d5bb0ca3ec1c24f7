/**
 * The offline root cause leads with what is known: an upstream's failure when the error says one,
 * else the documented cause of the matched family, then where the error was thrown; and its
 * evidence brings the lines around the failure (where the clue is), not the same line eight times.
 */
import { describe, expect, it } from 'vitest';
import { contributingFactors, documentedCause, incidentEvidence, offlineRootCause } from '../../src/analysts/offline-rca-text.js';
import type { SimilarDoc, SuspectCommit } from '../../src/domain/analysis.js';
import type { LogEntry } from '../../src/domain/event.js';
import { buildEvent } from './builders.js';

const family: SimilarDoc = { id: 'doc-sym', title: 'Payments: missing authorization object on declined payments — Symptom', excerpt: 'Checkouts whose payment is declined fail with 500.', source: 'data/docs/payment-null-authorization.md', similarity: 0.55 };
const cause: SimilarDoc = {
  id: 'doc-cause', title: 'Payments: missing authorization object on declined payments — Cause', source: 'data/docs/payment-null-authorization.md', similarity: 0.27,
  excerpt: "The payment gateway's API v2 nests the authorization in an `authorization` object that is present\nonly for approved payments; declined and review responses carry `decline` instead. Code that maps the response reads it unconditionally.",
};
const otherCause: SimilarDoc = { id: 'doc-x', title: 'Rate limited by an upstream (429) — Cause', excerpt: 'The PSP limits calls per merchant.', source: 'data/docs/rate-limited-429.md', similarity: 0.2 };
const suspect: SuspectCommit = { sha: '9f400e0f82471b4025c400e145b0450d28450594', author: 'Alice Moreau', date: '2026-11-25T03:12:00.000Z', subject: 'payments: move to gateway API v2', file: 'src/payments/payment-client.ts', line: 52, ageDays: 5.2 };

const nodeCrash = buildEvent({
  service: 'shop',
  message: "request failed: TypeError: Cannot read properties of undefined (reading 'authorizationId')",
  raw: "request failed: TypeError: Cannot read properties of undefined (reading 'authorizationId')\nTypeError: Cannot read properties of undefined (reading 'authorizationId')\n    at toAuthorization (/srv/shop/src/payments/payment-client.ts:52:41)\n    at PaymentClient.requestAuthorization (/srv/shop/src/payments/payment-client.ts:93:12)",
  correlationIds: { txn_id: 'txn_5fa147c486908c9e' },
});

describe('the documented cause leads', () => {
  it("takes the family's Cause section from the same document, cut at a clause to leave room for where", () => {
    expect(documentedCause(family, [family, otherCause, cause])).toBe("The payment gateway's API v2 nests the authorization in an `authorization` object that is present only for approved payments");
    expect(documentedCause(family, [family, otherCause])).toBeUndefined();
  });

  it('says the cause first, then what was thrown where and the commit, then whose documentation it is', () => {
    const text = offlineRootCause({ event: nodeCrash, family, docs: [family, cause], changes: [], suspects: [suspect] });
    expect(text.startsWith("The payment gateway's API v2 nests the authorization")).toBe(true);
    expect(text).toContain(`TypeError "Cannot read properties of undefined (reading 'authorizationId')" thrown in toAuthorization (/srv/shop/src/payments/payment-client.ts:52)`);
    expect(text.indexOf('thrown in')).toBeLessThan(330);
    expect(text).toMatch(/Cause as documented for "Payments: missing authorization object on declined payments" \(similarity 0\.55\)\.$/);
  });

  it('names the family when its Cause section was not retrieved, and says undetermined without one', () => {
    expect(offlineRootCause({ event: nodeCrash, family, docs: [family], changes: [] })).toMatch(/Similar to the documented family "Payments: missing authorization object on declined payments" \(similarity 0\.55\)\.$/);
    expect(offlineRootCause({ event: nodeCrash, changes: [] })).toMatch(/^Undetermined cause, no documented family matches: TypeError/);
  });

  it('quotes the words of a message, not the body inside it', () => {
    const body = JSON.stringify({ items: Array.from({ length: 300 }, (_, i) => ({ sku: `SKU-${i}`, onHand: i })) });
    const text = offlineRootCause({ event: buildEvent({ message: `stock sync failed: warehouse API returned an unreadable body: ${body}`, raw: 'stock sync failed' }), changes: [] });
    expect(text).toMatch(/"stock sync failed: warehouse API returned an unreadable body: \{(?:…|\.\.\.)\(\d+ chars\)" in checkout/);
  });
});

describe('an upstream failure is said as such', () => {
  const gateway = buildEvent({
    service: 'gateway', message: 'upstream error: 502 Bad Gateway', raw: 'upstream error: 502 Bad Gateway', errorCode: 'UPSTREAM_502',
    fields: { requestId: 'req-7edee61b', upstream: 'shop:8080', detail: 'connect ECONNREFUSED 10.2.0.14:8080', attempt: '1' },
  });

  it('leads with the refused upstream and names no client file as the cause', () => {
    const text = offlineRootCause({ event: gateway, changes: [], suspects: [suspect] });
    expect(text).toBe('Upstream failure: connection refused by 10.2.0.14:8080. Seen as "upstream error: 502 Bad Gateway" in gateway.');
    expect(contributingFactors(gateway, [], [suspect])).toEqual([]);
  });

  it('says where a Java client surfaced it, without blaming the commit of that code', () => {
    const java = buildEvent({
      service: 'orders', message: 'order sync failed',
      raw: 'order sync failed\njava.net.ConnectException: Connection refused: inventory/10.0.3.12:9090\n\tat com.acme.orders.InventoryClient.reserve(InventoryClient.java:57)\n\tat com.acme.orders.OrderService.place(OrderService.java:88)',
    });
    const text = offlineRootCause({ event: java, changes: [], suspects: [{ ...suspect, file: 'src/main/java/com/acme/orders/InventoryClient.java', line: 57 }] });
    expect(text).toBe('Upstream failure: connection refused by 10.0.3.12:9090. Seen as ConnectException "Connection refused: inventory/10.0.3.12:9090" in orders, surfacing in reserve (com/acme/orders/InventoryClient.java:57).');
    expect(text).not.toContain('last changed');
  });
});

describe('the evidence of an incident', () => {
  const at = (s: number) => new Date(Date.parse('2026-11-30T08:17:00.000Z') + s * 1_000).toISOString();
  const failure = (i: number): LogEntry => ({ id: `log-${i}`, time: at(i), level: 'ERROR', service: 'shop', message: "request failed: TypeError: Cannot read properties of undefined (reading 'authorizationId')" });

  it('shows the first lines of the failure, then the lines carrying its ids, then more of the failure', () => {
    const entries: LogEntry[] = [
      failure(0), failure(1), failure(2), failure(3), failure(4), failure(5),
      { id: 'log-6', time: at(6), level: 'INFO', service: 'payments', message: 'psp answered txn_id=txn_5fa147c486908c9e orderNumber=SO-061F53C5 http_status=200 decision=declined decline_reason=do_not_honor' },
      { id: 'log-7', time: at(7), level: 'WARN', service: 'payments', message: 'checkout aborted, releasing stock txn_id=txn_5fa147c486908c9e' },
      failure(8), failure(9),
      { id: 'log-10', time: at(10), level: 'INFO', service: 'payments', message: 'psp answered txn_id=txn_other decision=approved' },
    ];
    const ids = incidentEvidence(nodeCrash, entries).map((e) => e.id);
    expect(ids).toEqual(['log-0', 'log-1', 'log-2', 'log-6', 'log-7', 'log-3', 'log-4', 'log-5']);
  });
});
