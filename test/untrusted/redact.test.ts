import { describe, expect, it } from 'vitest';
import { luhnValid, redactSecrets } from '../../src/domain/untrusted/redact.js';

describe('redactSecrets', () => {
  it('keeps ordinary operational text readable', () => {
    const text = 'order 1234567890123 failed after 3 retries at 2026-03-02T10:15:00Z; tokens=512 user=bob path=/api/cart';
    expect(redactSecrets(text)).toBe(text);
  });

  it('redacts card numbers only when they pass the Luhn check', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(redactSecrets('card 4111-1111-1111-1111')).toBe('card [REDACTED:card]');
    expect(redactSecrets('trace 4111111111111112')).toBe('trace 4111111111111112');
  });

  it('redacts emails only when asked', () => {
    expect(redactSecrets('mail ops@example.com')).toBe('mail ops@example.com');
    expect(redactSecrets('mail ops@example.com', { emails: true })).toBe('mail [REDACTED:email]');
  });

  it('labels each secret once, without nesting markers', () => {
    const out = redactSecrets('git push https://ghp_EXAMPLEexampleEXAMPLEexample01234567@github.com/x/y and password="p@ss w0rd"');
    expect(out).toBe('git push https://[REDACTED:github-token]@github.com/x/y and password="[REDACTED:secret]"');
    expect(redactSecrets(out)).toBe(out);
  });

  it('sees through zero-width characters hidden inside a token', () => {
    expect(redactSecrets('AKIA\u200bIOSFODNN7EXAMPLE')).toBe('[REDACTED:aws-access-key]');
  });
});
