import { describe, expect, it } from 'vitest';
import { displayTitle } from '../../src/domain/display-title.js';
import { templateOf } from '../../src/use-cases/ingest-events.js';
import { createTemplateMiner } from '../../src/domain/templates/template-miner.js';

describe('the title people read', () => {
  it('fills each variable with the value most samples had there', () => {
    const lines = ['page index 7 out of range 5', 'page index 9 out of range 5', 'page index 7 out of range 6', 'page index 7 out of range 5'];
    expect(displayTitle(templateOf(lines[0]!), lines)).toBe('page index 7 out of range 5');
  });

  it('takes the first sample on a tie, so the first event decides an even split', () => {
    expect(displayTitle('order <*> failed', ['order 12 failed', 'order 34 failed'])).toBe('order 12 failed');
  });

  it('matches the template inside a title that leads with the exception type the messages lack', () => {
    const template = templateOf('upstream error: 502 Bad Gateway');
    expect(template).toContain('<*>');
    expect(displayTitle(`UpstreamError: ${template}`, ['upstream error: 502 Bad Gateway'], { template })).toBe('UpstreamError: upstream error: 502 Bad Gateway');
    // Without the template named, the head is still matched from a word boundary.
    expect(displayTitle(`UpstreamError: ${template}`, ['upstream error: 502 Bad Gateway'])).toBe('UpstreamError: upstream error: 502 Bad Gateway');
  });

  it('a storm of 502s from the miner gives a title without a placeholder', () => {
    const miner = createTemplateMiner();
    const lines = Array.from({ length: 400 }, (_, i) => `upstream error: 502 Bad Gateway from 10.2.0.${i % 7}:8080 after ${100 + i} ms`);
    let template = '';
    for (const line of lines) template = miner.add(line).template;
    expect(template).toContain('<*>');
    const title = displayTitle(template, lines.slice(0, 20));
    expect(title).not.toContain('<*>');
    expect(title).toMatch(/^upstream error: 502 Bad Gateway from 10\.2\.0\.\d:8080 after \d+ ms$/);
  });

  it('keeps multi-word values a collapsed run of values stands for', () => {
    expect(displayTitle(templateOf('retry ids 1 2 3 gave up'), ['retry ids 1 2 3 gave up'])).toBe('retry ids 1 2 3 gave up');
  });

  it('is one line, cut on a word, and never shows a placeholder no sample fills', () => {
    const json = '{"level":"error",\n"msg":"payment <*> declined for <*>",\n"detail":"<*>"}';
    const title = displayTitle(json, []);
    expect(title).not.toContain('<*>');
    expect(title).not.toContain('\n');
    const long = displayTitle('checkout failed while '.repeat(20) + '<*>', ['nothing alike']);
    expect(long.length).toBeLessThanOrEqual(120);
    expect(long.endsWith('while…') || long.endsWith('failed…') || long.endsWith('checkout…')).toBe(true);
  });

  it('ignores samples of another shape and cuts a long value on a word', () => {
    const body = `${'x'.repeat(10)} ${'word '.repeat(30)}`.trim();
    const title = displayTitle('bad body <*>', ['something else entirely', `bad body ${body}`]);
    expect(title.startsWith('bad body xxxxxxxxxx word')).toBe(true);
    expect(title.length).toBeLessThan(70);
    expect(title.endsWith('…')).toBe(true);
  });
});
