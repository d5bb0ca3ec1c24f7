/** The fix commit's subject: named once, within 72 characters, never cut mid-word. */
import { describe, expect, it } from 'vitest';
import { commitMessage } from '../../src/adapters/git/git-fix-publisher.js';
import { createFixProposal } from '../../src/domain/fix.js';
import { presentCommitSubject } from '../../src/presenters/commit-message.js';

const proposal = createFixProposal({ file: 'src/a.ts', before: 'a\n', after: 'b\n', explanation: 'x' });

describe('the fix commit subject', () => {
  it('is not doubled by the publisher and is not cut mid-word', () => {
    const title = 'request failed: RangeError: Invalid discount per item: Infinity while pricing the cart <*>';
    const subject = presentCommitSubject({ service: 'shop', title });
    expect(subject.length).toBeLessThanOrEqual(72);
    expect(subject).toBe('fix(shop): request failed: RangeError: Invalid discount per item…');
    const message = commitMessage({ incidentId: 'inc-shop-1', branch: 'fix/inc-shop-1-20261130100000', proposal, message: `${subject}\n\nMedic incident inc-shop-1.` });
    const [first] = message.split('\n');
    expect(first).toBe(subject);
    expect(message).toContain('Medic-Incident: inc-shop-1');
  });

  it('drops template placeholders, and a short title stays whole', () => {
    expect(presentCommitSubject({ service: 'shop', title: 'Order <*> failed: <*>' })).toBe('fix(shop): Order failed');
  });

  it('prefixes a plain first line once, cutting it at a word boundary', () => {
    const [first] = commitMessage({ incidentId: 'inc-1', branch: 'fix/inc-1-1', proposal, message: `Guard the ${'very '.repeat(30)}long discount path` }).split('\n');
    expect(first!.startsWith('fix(inc-1): Guard the very')).toBe(true);
    expect(first!.length).toBeLessThanOrEqual(72);
    expect(first!.endsWith('very…')).toBe(true);
  });

  it('stays fast on a hostile 64 KiB title', () => {
    const started = performance.now();
    presentCommitSubject({ service: 's', title: `a${' :'.repeat(32_768)}b${' ,'.repeat(32_768)}` });
    expect(performance.now() - started).toBeLessThan(200);
  });
});
