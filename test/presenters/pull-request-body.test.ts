import { describe, expect, it } from 'vitest';
import { presentPullRequestBody, presentPullRequestTitle } from '../../src/presenters/pull-request-body.js';

const base = {
  incidentId: 'INC-9',
  incidentTitle: 'RangeError: Invalid discount per item',
  incidentUrl: 'https://medic.example/incidents/INC-9',
  rootCause: 'spreadDiscount divides by the number of discountable items, which is zero for a gift-card-only cart.',
  confidence: 0.84,
  evidence: ['log-3: RangeError: Invalid discount per item: Infinity', 'doc CO-500: divide-by-zero in checkout'],
  approver: 'Dana (U123)',
  file: 'src/checkout/discounts.ts',
  explanation: 'Return no discount when no item can carry one.',
};

describe('presentPullRequestBody', () => {
  it('holds the root cause, confidence, evidence, approver and a link back to the incident', () => {
    const body = presentPullRequestBody(base);
    expect(body).toContain('[INC-9](https://medic.example/incidents/INC-9)');
    expect(body).toContain('confidence 84%');
    expect(body).toContain('> spreadDiscount divides');
    expect(body).toContain('- log-3: RangeError');
    expect(body).toContain('**Dana (U123)**');
    expect(body).toContain('`src/checkout/discounts.ts`');
    expect(presentPullRequestTitle(base)).toBe('fix(INC-9): RangeError: Invalid discount per item');
  });

  it('redacts secrets and defuses markup and mentions from untrusted text, within size limits', () => {
    const body = presentPullRequestBody({
      ...base,
      incidentUrl: 'javascript:alert(1)',
      rootCause: 'token ghp_abcdefghijklmnopqrstuvwxyz0123 in <script>alert(1)</script> ping @octocat',
      evidence: Array.from({ length: 20 }, (_, i) => `line ${i} password=hunter2hunter2`),
    });
    expect(body).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123');
    expect(body).not.toContain('hunter2');
    expect(body).not.toContain('<script>');
    expect(body).not.toContain('javascript:');
    expect(body).not.toMatch(/@octocat/);
    expect(body).toContain('and 12 more');
    expect(presentPullRequestBody({ ...base, rootCause: 'x'.repeat(100_000) }).length).toBeLessThanOrEqual(60_000);
  });
});
