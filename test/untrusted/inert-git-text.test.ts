/**
 * Text from logs or the model reaches commit messages and pull requests as words only: nothing in
 * it closes an issue, links one, turns CI off, notifies anybody, hides a link or loads an image.
 */
import { describe, expect, it } from 'vitest';
import { commitMessage } from '../../src/adapters/git/git-fix-publisher.js';
import { createFixProposal } from '../../src/domain/fix.js';
import { INERT_AFTER, inertGitText } from '../../src/domain/untrusted/inert-git-text.js';
import { presentPullRequestBody, presentPullRequestTitle } from '../../src/presenters/pull-request-body.js';

/** What GitHub, GitHub Actions, GitLab CI and Azure Pipelines act on in a commit message or PR body. */
const LIVE: [string, RegExp][] = [
  ['closing keyword', /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)[:\s]+(?:[\w.-]+\/[\w.-]+)?#\d/i],
  ['issue reference', /#\d|\bGH-\d/i],
  ['issue URL', /:\/\//],
  ['CI skip directive', /\[(?:skip[ -]?\w*|\w+[ -]skip|no[ _-]?ci)\]/i],
  ['Azure NO_CI', /NO_CI/i],
  ['skip-checks trailer', /skip-checks[ \t]*:/i],
  ['mention', /(?<![\w.+-])@[\w-]/],
  ['markdown link', /\]\(|\]\[|\]:/],
  ['markdown image', /!\[/],
];

const HOSTILE = [
  'Fixes #1', 'closes org/repo#7', 'Resolves: #12', 'fixed GH-3', 'Closes https://github.com/acme/shop/issues/9',
  'done [skip ci]', '[ci skip] now', '[no ci]', '[skip actions]', '[actions skip]', '[skip azurepipelines]', '[travis skip]',
  '***NO_CI***', 'skip-checks: true', 'skip-checks:true',
  'ping @octocat and @acme/security-team', '[click me](https://evil.example/login)', '![pixel](https://evil.example/p.png)',
  '[ref][1]', '[1]: https://evil.example',
];

function assertInert(text: string, source: string): void {
  for (const [what, live] of LIVE) expect(text, `${what} live in ${source}: ${text}`).not.toMatch(live);
}

describe('inertGitText', () => {
  it.each(HOSTILE)('%s reads the same and means nothing', (input) => {
    const out = inertGitText(input);
    assertInert(out, 'text');
    // Only the marks were added: the reader sees the same words.
    expect(out.replace(INERT_AFTER, (m) => m.slice(0, 1))).toBe(input);
    expect(inertGitText(out)).toBe(out);
  });

  it('leaves ordinary text, e-mail addresses and plain brackets alone', () => {
    for (const text of ['RangeError at spreadDiscount (src/cart.ts:12:5)', 'mail ops@example.com', 'array[0] is undefined', 'fix(checkout): guard the count']) {
      expect(inertGitText(text)).toBe(text);
    }
  });
});

describe('commit messages and pull requests carry no live markup from logs or the model', () => {
  const proposal = createFixProposal({ file: 'src/a.ts', before: 'a\n', after: 'b\n', explanation: 'x' });
  const hostile = HOSTILE.join(' ');

  it('the commit message, subject and body, keeps only its own trailers live', () => {
    const message = commitMessage({ incidentId: 'inc-1', branch: 'fix/inc-1-1', proposal, message: `${hostile}\n\nRoot cause: ${hostile}` });
    const [above, trailers] = [message.slice(0, message.lastIndexOf('\n\n')), message.slice(message.lastIndexOf('\n\n'))];
    assertInert(above, 'commit message');
    expect(trailers).toContain(`Medic-Proposal: ${proposal.contentHash}`);
  });

  it('the pull request title and body', () => {
    const body = presentPullRequestBody({ incidentId: 'inc-1', incidentTitle: hostile, rootCause: hostile, confidence: 0.5, evidence: [hostile], approver: '@octocat', file: 'src/a.ts', explanation: hostile, recommendation: hostile });
    assertInert(body, 'pull request body');
    assertInert(presentPullRequestTitle({ incidentId: 'inc-1', incidentTitle: hostile }), 'pull request title');
    // An HTML entity cannot rebuild what was broken (`&#64;` is `@`).
    const entities = presentPullRequestBody({ incidentId: 'inc-1', incidentTitle: 't', rootCause: '&#64;octocat &#x23;1 &commat;x', confidence: 0.5, evidence: [], approver: 'U1', file: 'a', explanation: 'x' });
    expect(entities).not.toMatch(/&#|&commat;/);
    expect(entities).toContain('&amp;commat;');
  });
});
