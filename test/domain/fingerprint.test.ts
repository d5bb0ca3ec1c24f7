import { describe, expect, it } from 'vitest';
import { fingerprintEvent } from '../../src/domain/fingerprint.js';
import { templateOf } from '../../src/use-cases/ingest-events.js';
import { buildEvent } from '../support/builders.js';

const fp = (message: string, raw = message, service = 'checkout') => fingerprintEvent(buildEvent({ message, raw, service }), templateOf(message)).key;

describe('event fingerprints', () => {
  it('group the same failure with different ids, numbers and addresses', () => {
    expect(fp('Payment declined for order 1234 from 10.0.0.7:5432')).toBe(fp('Payment declined for order 98 from 10.1.2.3:80'));
    expect(fp('user 5f0c1a2b-1111-4222-8333-444455556666 timed out after 31ms')).toBe(fp('user 0a0c1a2b-1111-4222-8333-444455556666 timed out after 2s'));
  });

  it('keep different failures apart even when they share most words', () => {
    expect(fp('Payment declined for order 1234')).not.toBe(fp('Payment timeout for order 1234'));
    expect(fp('Payment declined for order 1234', undefined, 'checkout')).not.toBe(fp('Payment declined for order 1234', undefined, 'billing'));
  });

  it('use the exception type and top in-app frames, never line numbers', () => {
    const trace = (line: number, fn = 'applyDiscounts') => `RangeError: Invalid discount\n    at ${fn} (/srv/shop/src/checkout/discounts.ts:${line}:17)\n    at Module._compile (node:internal/modules/cjs/loader:1105:14)`;
    expect(fp('RangeError: Invalid discount', trace(42))).toBe(fp('RangeError: Invalid discount', trace(57)));
    expect(fp('RangeError: Invalid discount', trace(42))).not.toBe(fp('RangeError: Invalid discount', trace(42, 'cartTotal')));
  });

  it('is deterministic', () => {
    const event = buildEvent({ message: 'Payment declined for order 7' });
    expect(fingerprintEvent(event, templateOf(event.message))).toEqual(fingerprintEvent(event, templateOf(event.message)));
  });
});
