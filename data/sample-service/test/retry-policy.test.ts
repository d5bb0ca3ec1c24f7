import { describe, expect, it } from 'vitest';
import { backoffMs, defaultRetryPolicy, isTransient, withRetry } from '../src/payments/retry-policy.js';
import { PaymentGatewayError } from '../src/payments/payment-client.js';

const noWait = async () => {};

describe('withRetry', () => {
  it('retries a 503 and returns the first success', async () => {
    let calls = 0;
    const result = await withRetry(
      defaultRetryPolicy(3),
      async () => {
        calls += 1;
        if (calls < 3) throw new PaymentGatewayError(503, 'payment gateway answered 503');
        return 'ok';
      },
      () => {},
      noWait,
    );
    expect(result).toBe('ok');
    expect(calls).toBe(3);
  });

  it('does not retry a 402', async () => {
    let calls = 0;
    const declined = withRetry(
      defaultRetryPolicy(3),
      async () => {
        calls += 1;
        throw new PaymentGatewayError(402, 'payment gateway answered 402');
      },
      () => {},
      noWait,
    );
    await expect(declined).rejects.toThrow('402');
    expect(calls).toBe(1);
  });
});

describe('backoffMs', () => {
  it('caps the delay at maxDelayMs', () => {
    expect(backoffMs(defaultRetryPolicy(), 10, () => 0.999)).toBeLessThan(2_000);
  });

  it('treats 429 as transient and TypeError as not', () => {
    expect(isTransient(new PaymentGatewayError(429, 'slow down'))).toBe(true);
    expect(isTransient(new TypeError('boom'))).toBe(false);
  });
});
