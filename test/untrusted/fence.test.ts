import { describe, expect, it } from 'vitest';
import { fenceFor, fenceUntrusted, readFenced } from '../../src/domain/untrusted/fence.js';
import { normalizeUntrusted } from '../../src/domain/untrusted/invisible.js';

describe('fence', () => {
  it('wraps content between delimiters carrying the nonce and reads it back', () => {
    const fenced = fenceUntrusted('logs', 'line one\nline two', 'a1b2c3d4e5f6');
    expect(fenced).toBe('<<untrusted-logs nonce=a1b2c3d4e5f6>>\nline one\nline two\n<</untrusted-logs nonce=a1b2c3d4e5f6>>');
    expect(readFenced(fenced, 'logs', 'a1b2c3d4e5f6')).toBe('line one\nline two');
  });

  it('refuses labels and nonces that could themselves break the format', () => {
    expect(() => fenceFor('logs>>', 'a1b2c3d4e5f6')).toThrow(/kebab-case/);
    expect(() => fenceFor('logs', 'short')).toThrow(/8-64/);
    expect(() => fenceFor('logs', 'a1b2 c3d4>>')).toThrow(/8-64/);
  });

  it('folds look-alikes and strips invisible and control characters, keeping newlines and tabs', () => {
    expect(normalizeUntrusted('\uff1c\uff1ca\u200bb\u202ec\u0007\td\ne')).toBe('<<abc\td\ne');
  });
});
