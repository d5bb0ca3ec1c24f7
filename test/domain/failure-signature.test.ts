import { describe, expect, it } from 'vitest';
import { failureSignature, familyIdOf } from '../../src/domain/failure-signature.js';
import { presentSameFailure } from '../../src/presenters/same-failure-line.js';
import { buildEvent, buildIncident } from '../support/builders.js';

const trace = (root: string, type = 'RangeError', fn = 'spreadDiscount') => [
  `${type}: Invalid discount per item: Infinity`,
  `    at ${fn} (/srv/${root}/src/checkout/discounts.ts:44:11)`,
  `    at applyDiscounts (/srv/${root}/src/checkout/discounts.ts:58:10)`,
  '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
].join('\n');
const event = (service: string, raw: string) => buildEvent({ service, message: raw.split('\n')[0], raw });

describe('the failure signature', () => {
  it('is the same for two services with the same exception and top in-app frames, whatever the deployment root and line numbers', () => {
    const a = failureSignature(event('shop', trace('shop')), 'fam-1');
    const b = failureSignature(event('storefront', trace('storefront').replace(':44:11', ':47:3')), 'fam-2');
    expect(a).toEqual({ kind: 'stack', key: expect.stringMatching(/^stack:/) as string });
    expect(b).toEqual(a);
  });

  it('differs with the exception type, the frames, or the repository', () => {
    const base = failureSignature(event('shop', trace('shop')), 'fam')!.key;
    expect(failureSignature(event('storefront', trace('storefront', 'TypeError')), 'fam')!.key).not.toBe(base);
    expect(failureSignature(event('storefront', trace('storefront', 'RangeError', 'orderDiscount')), 'fam')!.key).not.toBe(base);
    const apart = (service: string) => `acme/${service}`;
    expect(failureSignature(event('shop', trace('shop')), 'fam', apart)!.key).not.toBe(failureSignature(event('storefront', trace('storefront')), 'fam', apart)!.key);
  });

  it('without an in-app frame, is the family in the repository; without a repository, nothing', () => {
    const plain = (service: string) => event(service, 'ledger sync refused by upstream');
    expect(failureSignature(plain('billing'), 'fam-7')).toEqual(failureSignature(plain('invoicing'), 'fam-7'));
    expect(failureSignature(plain('billing'), 'fam-7')?.kind).toBe('family');
    expect(failureSignature(plain('billing'), 'fam-8')).not.toEqual(failureSignature(plain('invoicing'), 'fam-7'));
    expect(failureSignature(plain('billing'), undefined)).toBeUndefined();
    expect(failureSignature(plain('billing'), 'fam-7', () => undefined)).toBeUndefined();
  });

  it('reads the family from the mined family, else from the fingerprint', () => {
    expect(familyIdOf({ fingerprint: 'scope:fam-a', family: { groupId: 'g1' } })).toBe('g1');
    expect(familyIdOf({ fingerprint: 'scope:fam-a' })).toBe('fam-a');
  });
});

describe('the same-failure line on a card', () => {
  it('links to the first card when it is a Slack message, and escapes what came from logs', () => {
    const second = buildIncident({ sameFailureAs: { incidentId: 'inc-1', service: 'sho`p', title: '<!channel> *boom*', kind: 'stack', card: { channel: 'C0123ABC', ts: '1764493200.000100' } } });
    const line = presentSameFailure(second)!;
    expect(line).toContain('same failure as <https://slack.com/archives/C0123ABC/p1764493200000100|inc-1>');
    expect(line).not.toContain('<!channel>');
    expect(presentSameFailure({ ...second, sameFailureAs: { ...second.sameFailureAs!, card: { channel: 'incidents', ts: 'card:inc-1' } } })).toContain('same failure as `inc-1`');
  });

  it('on the first card, names who else reports it', () => {
    const first = buildIncident({ sameFailures: Array.from({ length: 7 }, (_, i) => ({ incidentId: `inc-${i}`, service: `svc-${i}` })) });
    expect(presentSameFailure(first)).toMatch(/^🧬 also reported by `svc-0` \(`inc-0`\), .* and 2 more: this card's fix is theirs too$/);
    expect(presentSameFailure(buildIncident())).toBeUndefined();
  });
});
