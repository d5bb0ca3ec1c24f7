import { describe, expect, it } from 'vitest';
import { cardRetryDelayMs } from '../../src/domain/card-retry.js';
import { ErrorCode, MedicError } from '../../src/domain/errors.js';

const policy = { minMs: 2_000, maxMs: 3 * 3_600_000 };
const noJitter = () => 0;

describe('when a card is tried again', () => {
  it("waits Slack's Retry-After when Slack said one, jittered up to 20% so a storm's cards spread out", () => {
    const limited = new MedicError(ErrorCode.UpstreamUnavailable, 'rate-limited', { transient: true, retryAfterMs: 30_000 });
    expect(cardRetryDelayMs(7, limited, policy, noJitter)).toBe(30_000);
    expect(cardRetryDelayMs(7, limited, policy, () => 0.999)).toBeLessThanOrEqual(36_000);
  });

  it('otherwise doubles from the minimum, up to hours and never beyond the maximum', () => {
    const refused = new MedicError(ErrorCode.UpstreamRejected, 'channel_not_found');
    expect([1, 2, 3, 4].map((n) => cardRetryDelayMs(n, refused, policy, noJitter))).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(cardRetryDelayMs(14, refused, policy, noJitter)).toBe(policy.maxMs);
    expect(cardRetryDelayMs(500, refused, policy, () => 0.999)).toBe(policy.maxMs);
  });
});
