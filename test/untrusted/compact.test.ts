import { describe, expect, it } from 'vitest';
import { compactLines, type UntrustedLine } from '../../src/domain/untrusted/compact.js';
import { prepareLines } from '../../src/domain/untrusted/prepare.js';

const storm = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `log-${i}`, text: `ERROR db timeout after ${1000 + i}ms conn=${i}` }));

describe('compactLines', () => {
  it('collapses a storm of near-identical lines into the first (with a count) and the last', () => {
    const result = compactLines(storm(150), { maxLineChars: 200, maxTokens: 1_000 });
    expect(result.text).toBe('log-0 ERROR db timeout after 1000ms conn=0 [repeated 150× in total]\nlog-149 (last repeat of log-0)');
    expect(result.shownIds).toEqual(['log-0', 'log-149']);
    expect(result.omittedLines).toBe(0);
    expect(result.collapsedLines).toBe(148);
  });

  it('caps each line with a marker saying how much was cut', () => {
    const result = compactLines([{ id: 'log-0', text: 'x'.repeat(1_000) }], { maxLineChars: 100, maxTokens: 1_000 });
    expect(result.text.length).toBeLessThan(120);
    expect(result.text).toMatch(/…\[\+912\]$/);
  });

  it('cuts to the token budget keeping priority lines and those nearest the focus, in order', () => {
    const lines: UntrustedLine[] = Array.from({ length: 100 }, (_, i) => ({ id: `log-${i}`, text: `step ${'abcdefghij'[i % 10]} ${'q'.repeat(60)} unique-${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}` }));
    lines[3]!.priority = 1;
    const result = compactLines(lines, { maxLineChars: 200, maxTokens: 300, focus: 60 });
    expect(result.tokens).toBeLessThanOrEqual(300);
    expect(result.shownIds).toContain('log-3');
    expect(result.shownIds).toContain('log-60');
    expect(result.shownIds).not.toContain('log-99');
    expect(result.text).toMatch(/\[… \d+ line\(s\) omitted to fit the budget …\]/);
    const order = result.shownIds.map((id) => Number(id.slice(4)));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('redacts before compacting, so a secret is caught before a line cap could split it', () => {
    const section = prepareLines([{ id: 'log-0', text: `${'x'.repeat(90)} password=hunter2hunter2hunter2` }], { label: 'logs', nonce: 'abcdef123456', maxTokens: 500, maxLineChars: 100 });
    expect(section.fenced).not.toContain('hunter2');
  });
});

describe('compactLines on hostile input', () => {
  it('folds 16 KB lines by their shape, digits masked word by word', () => {
    const lines = [
      { id: 'log-0', text: 'a'.repeat(16_000) },
      { id: 'log-1', text: `${'ab1'.repeat(5_000)}x` },
      { id: 'log-2', text: `${'ab2'.repeat(5_000)}x` },
    ];
    const result = compactLines(lines, { maxLineChars: 100, maxTokens: 1_000 });
    expect(result.shownIds).toEqual(['log-0', 'log-1', 'log-2']);
    expect(result.text).toContain('[repeated 2× in total]');
  });
});
