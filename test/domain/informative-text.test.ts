import { describe, expect, it } from 'vitest';
import { informativeText } from '../../src/domain/informative-text.js';
import type { ErrorEvent } from '../../src/domain/event.js';
import { similarDocsQuery } from '../../src/retrieval/find-similar-docs.js';

const items = (n: number) => JSON.stringify({ items: Array.from({ length: n }, (_, i) => ({ sku: `SKU-${i}`, onHand: i * 37, warehouse: 'AMS-2' })) });

describe('the informative part of a message', () => {
  it('cuts a long JSON body and keeps the words around it', () => {
    const body = items(500);
    const text = informativeText(`stock sync failed: warehouse API returned an unreadable body: ${body} after 3 attempts`);
    expect(text).toBe(`stock sync failed: warehouse API returned an unreadable body: {…(${body.length} chars) after 3 attempts`);
  });

  it('cuts a body that was itself cut short and never closes', () => {
    const text = informativeText(`unexpected response: ${items(50).slice(0, 900)}`);
    expect(text).toBe('unexpected response: {…(900 chars)');
  });

  it('keeps short bracketed values: ranges, ids, small objects', () => {
    for (const text of ['page index 5 out of range [0, 4]', 'duplicate key {id: 7}', "KeyError: 'user' in {'a': 1}"]) expect(informativeText(text)).toBe(text);
  });

  it('ignores brackets inside JSON strings when it finds a body’s end', () => {
    const body = JSON.stringify({ note: 'a } inside and a ] too', pad: 'x'.repeat(150) });
    expect(informativeText(`bad body ${body} then words`)).toBe(`bad body {…(${body.length} chars) then words`);
  });

  it('cuts an HTML error page and a long unbroken blob', () => {
    const page = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>${'<p>nginx</p>'.repeat(20)}</body></html>`;
    expect(informativeText(`upstream answered ${page}`)).toBe(`upstream answered <!DOCTYPE…(${page.length} chars)`);
    const blob = 'QUJD'.repeat(100);
    expect(informativeText(`signature mismatch for ${blob}`)).toBe(`signature mismatch for ${blob.slice(0, 24)}…(${blob.length} chars)`);
  });

  it('runs in linear time on hostile nesting', () => {
    const hostile = '['.repeat(50_000) + ']'.repeat(10) + '{"a":"'.repeat(10_000);
    const started = performance.now();
    informativeText(hostile);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('the similar-docs query', () => {
  it('matches on the message around a giant payload, not on the payload', () => {
    const body = items(800);
    const event: ErrorEvent = {
      id: 'file:shop.jsonl@148', source: 'file', time: '2026-11-30T09:39:00.700Z', service: 'shop', severity: 'error',
      message: `stock sync failed: warehouse API returned an unreadable body: ${body}`.slice(0, 16_384),
      raw: 'stock sync failed', errorCode: 'STOCK_SYNC_FAILED', correlationIds: {}, fields: {},
    };
    const query = similarDocsQuery(event, 'stock sync failed: warehouse API returned an unreadable body: {"items":[{"sku":"<*>","onHand":<*>,"warehouse":"<*>"}'.padEnd(2_000, ','));
    expect(query).toContain('STOCK_SYNC_FAILED');
    expect(query).toContain('stock sync failed: warehouse API returned an unreadable body: {');
    expect(query).not.toContain('SKU-1');
    expect(query.length).toBeLessThan(400);
  });
});
