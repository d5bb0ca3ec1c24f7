import { describe, expect, it } from 'vitest';
import { matchesPattern, ownersOf, parseCodeOwners, reviewRequestOf } from '../../src/domain/codeowners.js';

// The examples of GitHub's "About code owners" page, line for line.
const GITHUB_EXAMPLE = `# This is a comment.
*       @global-owner1 @global-owner2
*.js    @js-owner #This is an inline comment.
*.go docs@example.com
*.txt @octo-org/octocats
/build/logs/ @doctocat
docs/*  docs@example.com
apps/ @octocat
/docs/ @doctocat
/scripts/ @doctocat @octocat
**/logs @octocat
/apps/ @octocat
/apps/github
`;

describe('CODEOWNERS', () => {
  const rules = parseCodeOwners(GITHUB_EXAMPLE);

  it('lets the last matching pattern win, as GitHub documents', () => {
    expect(ownersOf(rules, 'README.md')).toEqual(['@global-owner1', '@global-owner2']);
    expect(ownersOf(rules, 'src/app.js')).toEqual(['@js-owner']);
    expect(ownersOf(rules, 'cmd/main.go')).toEqual(['docs@example.com']);
    expect(ownersOf(rules, 'notes/a.txt')).toEqual(['@octo-org/octocats']);
    expect(ownersOf(rules, 'build/logs/today/app.log')).toEqual(['@octocat']); // **/logs comes later
    expect(ownersOf(rules, 'scripts/deploy.sh')).toEqual(['@doctocat', '@octocat']);
    expect(ownersOf(rules, 'apps/web/index.html')).toEqual(['@octocat']);
    // A later line with no owners leaves the path unowned.
    expect(ownersOf(rules, 'apps/github/main.rb')).toEqual([]);
  });

  it('matches docs/* only directly inside docs, and /docs/ at any depth below the root docs', () => {
    expect(matchesPattern('docs/*', 'docs/getting-started.md')).toBe(true);
    expect(matchesPattern('docs/*', 'docs/build-app/troubleshooting.md')).toBe(false);
    expect(matchesPattern('/docs/', 'docs/build-app/troubleshooting.md')).toBe(true);
    expect(matchesPattern('/docs/', 'src/docs/x.md')).toBe(false);
    expect(matchesPattern('apps/', 'deep/apps/x.ts')).toBe(true);
    expect(matchesPattern('apps/', 'apps')).toBe(false); // a file named apps is not the directory
    expect(matchesPattern('**/logs', 'deeply/nested/logs/a.log')).toBe(true);
    expect(matchesPattern('services/payments/**', 'services/payments/src/charge.ts')).toBe(true);
    expect(matchesPattern('/services/*/src/*.ts', 'services/payments/src/charge.ts')).toBe(true);
    expect(matchesPattern('/services/*/src/*.ts', 'services/payments/src/deep/charge.ts')).toBe(false);
    expect(matchesPattern('charge.?s', 'a/charge.ts')).toBe(true);
  });

  it('skips what GitHub does not support and keeps escaped characters', () => {
    const parsed = parseCodeOwners('!secret.txt @a\n[abc].md @b\n\\#notes.md @c\nodd.md @d not-an-owner\n');
    expect(parsed.map((r) => [r.pattern, r.owners])).toEqual([['#notes.md', ['@c']], ['odd.md', ['@d']]]);
  });

  it('splits owners into the users and team slugs a review request takes', () => {
    expect(reviewRequestOf(['@alice', '@acme/payments', 'ops@example.com'])).toEqual({ users: ['alice'], teams: ['payments'] });
  });

  it('answers hostile patterns by table, without backtracking', () => {
    expect(matchesPattern(`${'*'.repeat(200)}x`, `${'a'.repeat(5_000)}`)).toBe(false);
    expect(matchesPattern(`${'**/'.repeat(50)}z`, `${'a/'.repeat(200)}b`)).toBe(false);
  });
});

describe('CODEOWNERS bounds', () => {
  it('matches a 16 KiB pattern against a 100-segment path once per segment pair, not once per prefix', () => {
    const path = Array.from({ length: 100 }, (_, i) => `d${i}`).join('/');
    const pattern = `${'*a'.repeat(8_000)}*`;
    const started = performance.now();
    expect(matchesPattern(pattern, path)).toBe(false);
    // Before, every prefix of the path re-matched every segment: about 6 s here (64 KiB took 23 s); now about 0.2 s.
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('skips a pattern past the cap and refuses a file past GitHub\'s 3 MiB with a clear error', () => {
    const long = `${'a'.repeat(2_000)} @owner\nsrc/ @team/core\n`;
    expect(parseCodeOwners(long).map((r) => r.pattern)).toEqual(['src/']);
    expect(() => parseCodeOwners(`* @a\n${'# filler\n'.repeat(400_000)}`)).toThrow(/CODEOWNERS is 3\.\d MiB: GitHub reads at most 3 MiB/);
  });
});
