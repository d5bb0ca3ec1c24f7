import { describe, expect, it } from 'vitest';
import { validateFix } from '../../src/analysts/validate-fix.js';
import { hashFixContent } from '../../src/domain/fix.js';
import { buildCandidates, FIXED_TOTAL_TS, TOTAL_TS } from './builders.js';

const answer = (file: string | null, newContent: string | null = FIXED_TOTAL_TS) => ({ file, newContent, explanation: 'Guard it.' });
const reason = (result: ReturnType<typeof validateFix>) => (result.ok ? 'accepted' : result.reason);

describe('validateFix', () => {
  it('accepts a small change to a candidate and binds the proposal to its content', () => {
    const result = validateFix(answer('src/cart/total.ts'), buildCandidates());
    if (!result.ok) throw new Error(result.reason);
    expect(result.proposal.before).toBe(TOTAL_TS);
    expect(result.proposal.diff).toContain('+    if (!line.product) continue;');
    expect(result.proposal.contentHash).toBe(hashFixContent('src/cart/total.ts', FIXED_TOTAL_TS));
  });

  it.each([
    ['/etc/passwd', /relative and inside/],
    ['../outside.ts', /relative and inside/],
    ['src/../../x.ts', /relative and inside/],
    ['C:\\win.ts', /relative and inside/],
    ['.git/config', /relative and inside/],
    ['src/other.ts', /not one of the 2 candidate/],
  ])('refuses the path %s', (file, message) => {
    expect(reason(validateFix(answer(file), buildCandidates()))).toMatch(message);
  });

  it('refuses a declined, unchanged, binary, oversized or sprawling change', () => {
    const candidates = buildCandidates();
    expect(reason(validateFix(answer(null, null), candidates))).toMatch(/declined/);
    expect(reason(validateFix(answer('src/cart/total.ts', TOTAL_TS + '\n\n'), candidates))).toMatch(/does not change/);
    expect(reason(validateFix(answer('src/cart/total.ts', 'a\u0000b'), candidates))).toMatch(/binary/);
    expect(reason(validateFix(answer('src/cart/total.ts', TOTAL_TS + 'x'.repeat(300)), candidates, { maxFileBytes: 200, maxChangedLines: 60 }))).toMatch(/byte cap/);
    const sprawl = TOTAL_TS + Array.from({ length: 80 }, (_, i) => `// line ${i}`).join('\n');
    expect(reason(validateFix(answer('src/cart/total.ts', sprawl), candidates))).toMatch(/over the 60-line limit/);
  });

  it('refuses to write a redaction marker over a real value', () => {
    const candidates = [{ file: 'src/config.ts', content: 'export const key = "sk-live";\nexport const x = 1;\n', score: 1 }];
    const result = validateFix(answer('src/config.ts', 'export const key = "[REDACTED:openai-key]";\nexport const x = 2;\n'), candidates);
    expect(reason(result)).toMatch(/redaction marker/);
  });

  it('keeps CRLF line endings so only the real change shows in the diff', () => {
    const crlf = TOTAL_TS.replace(/\n/g, '\r\n');
    const result = validateFix(answer('src/cart/total.ts'), [{ file: 'src/cart/total.ts', content: crlf, score: 1 }]);
    if (!result.ok) throw new Error(result.reason);
    expect(result.draft.after).toBe(FIXED_TOTAL_TS.replace(/\n/g, '\r\n'));
    expect(result.proposal.diff.split('\n').filter((l) => /^[+-][^+-]/.test(l))).toHaveLength(1);
  });
});
