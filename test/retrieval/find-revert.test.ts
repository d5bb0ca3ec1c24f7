import { describe, expect, it } from 'vitest';
import { createGitRepository } from '../../src/adapters/git/git-repository.js';
import type { SuspectCommit } from '../../src/domain/analysis.js';
import type { ErrorEvent } from '../../src/domain/event.js';
import { findFailingLines } from '../../src/retrieval/failing-lines.js';
import { findRevert, type RevertOutcome } from '../../src/retrieval/find-revert.js';
import { findSuspectCommits } from '../../src/retrieval/find-suspect-commits.js';
import { useRemoteClone } from '../git/build-remote.js';

const FILE = 'src/orders/pagination.ts';
const numbered = (n: number, edit: (i: number) => string | undefined = () => undefined) => Array.from({ length: n }, (_, i) => edit(i + 1) ?? `  const step${i + 1} = ${i + 1};`).join('\n') + '\n';

const suspectOf = (sha: string, file: string, line: number, subject = 'a change'): SuspectCommit => ({ sha, author: 'Test', date: new Date().toISOString(), subject, file, line, ageDays: 0.5 });
const revertIn = (outcome: RevertOutcome) => ('revert' in outcome ? outcome.revert : undefined);
const noteIn = (outcome: RevertOutcome) => ('note' in outcome ? outcome.note : '');

describe('findRevert on a real git history', () => {
  const clone = useRemoteClone();
  const repoOf = async () => {
    const repo = createGitRepository({ remoteUrl: clone.remote.bare, branch: 'main', workDir: clone.workDir });
    await repo.sync();
    return repo;
  };

  it('undoes only the hunk at the failing line, found from the stack trace, and names the hunks it keeps', async () => {
    clone.remote.commitToMain({ [FILE]: numbered(40) }, 'orders: paging');
    const sha = clone.remote.commitToMain({ [FILE]: numbered(40, (i) => (i === 5 || i === 20 || i === 35 ? `  const step${i} = ${i} * 2;` : undefined)) }, 'orders: double the steps');
    const repo = await repoOf();
    const raw = `RangeError: page out of range\n    at pageWindow (/srv/shop/src/orders/pagination.ts:20:5)\n    at list (/srv/shop/src/orders/pagination.ts:38:3)`;
    const event = { raw, message: 'RangeError: page out of range', time: new Date(Date.now() + 3_600_000).toISOString() } as ErrorEvent;
    const suspects = await findSuspectCommits(repo, { event });
    expect(suspects[0]).toMatchObject({ sha, file: FILE, line: 20 });
    const failingLines = await findFailingLines(repo, { text: raw, record: false });
    expect(failingLines.get(FILE)).toEqual([20, 38]);

    const revert = revertIn(await findRevert(repo, suspects, { maxAgeDays: 14, failingLines }));
    expect(revert).toMatchObject({ sha, file: FILE, lines: [{ start: 20, end: 20 }, { start: 35, end: 35 }], keptHunks: [{ start: 5, end: 5 }] });
    // Line 38 is within the context of the change at 35: that hunk is undone too; the one at 5 stays.
    expect(revert?.after).toBe(numbered(40, (i) => (i === 5 ? '  const step5 = 5 * 2;' : undefined)));
  });

  it('proposes no revert when none of the commit’s hunks is at a failing line', async () => {
    clone.remote.commitToMain({ [FILE]: numbered(40) }, 'orders: paging');
    const sha = clone.remote.commitToMain({ [FILE]: numbered(40, (i) => (i === 5 ? '  const step5 = 10;' : undefined)) }, 'orders: a later step');
    const outcome = await findRevert(await repoOf(), [suspectOf(sha, FILE, 30)], { maxAgeDays: 14 });
    expect(revertIn(outcome)).toBeUndefined();
    expect(noteIn(outcome)).toContain(`none of ${sha.slice(0, 8)}'s changes to ${FILE} is at a failing line (30)`);
  });

  it('proposes no revert when a later commit changed the failing hunk, but does when it changed another', async () => {
    clone.remote.commitToMain({ [FILE]: numbered(40) }, 'orders: paging');
    const sha = clone.remote.commitToMain({ [FILE]: numbered(40, (i) => (i === 5 || i === 20 ? `  const step${i} = 0;` : undefined)) }, 'orders: zero two steps');
    // A later commit changes line 7, in the context of the change at line 5.
    clone.remote.commitToMain({ [FILE]: numbered(40, (i) => (i === 5 || i === 20 ? `  const step${i} = 0;` : i === 7 ? '  const step7 = -1;' : undefined)) }, 'orders: step 7 later');
    const repo = await repoOf();
    const other = revertIn(await findRevert(repo, [suspectOf(sha, FILE, 20)], { maxAgeDays: 14 }));
    expect(other?.after).toBe(numbered(40, (i) => (i === 5 ? '  const step5 = 0;' : i === 7 ? '  const step7 = -1;' : undefined)));
    const same = await findRevert(repo, [suspectOf(sha, FILE, 5)], { maxAgeDays: 14 });
    expect(noteIn(same)).toContain('does not revert cleanly onto the current file');
  });

  it('refuses a commit its message calls a fix, and judges access checks by the lines the revert takes out', async () => {
    const base = numbered(40);
    clone.remote.commitToMain({ [FILE]: base }, 'orders: paging');
    const fix = clone.remote.commitToMain({ [FILE]: numbered(40, (i) => (i === 20 ? '  const step20 = 0;' : undefined)) }, 'orders: fix the step count');
    expect(noteIn(await findRevert(await repoOf(), [suspectOf(fix, FILE, 20)], { maxAgeDays: 14 }))).toContain('calls it a fix');

    // One commit adds an access check at line 5 and changes line 30: line 30's revert keeps the check.
    const both = clone.remote.commitToMain({ [FILE]: numbered(40, (i) => (i === 5 ? '  requireAdmin(user);' : i === 30 ? '  const step30 = 0;' : i === 20 ? '  const step20 = 0;' : undefined)) }, 'orders: a guard, and step 30');
    const repo = await repoOf();
    const kept = revertIn(await findRevert(repo, [suspectOf(both, FILE, 30)], { maxAgeDays: 14 }));
    expect(kept?.after).toContain('requireAdmin(user);');
    expect(kept?.after).toContain('const step30 = 30;');
    expect(noteIn(await findRevert(repo, [suspectOf(both, FILE, 5)], { maxAgeDays: 14 }))).toContain('would remove an access check (requireAdmin(user);)');
  });

  it('refuses one file cut out of a rename across files: the revert would call what no longer exists', async () => {
    const caller = (fn: string) => `import { ${fn} } from '../lib/total.js';\n\nexport function checkout(cart) {\n  const total = ${fn}(cart);\n  return total / cart.count;\n}\n`;
    clone.remote.commitToMain({ 'src/lib/total.ts': 'export function computeTotal(cart) {\n  return cart.sum;\n}\n', 'src/orders/checkout.ts': caller('computeTotal') }, 'orders: checkout');
    const sha = clone.remote.commitToMain({ 'src/lib/total.ts': 'export function orderTotal(cart) {\n  return cart.sum;\n}\n', 'src/orders/checkout.ts': caller('orderTotal') }, 'lib: name the total for what it is');
    const outcome = await findRevert(await repoOf(), [suspectOf(sha, 'src/orders/checkout.ts', 5)], { maxAgeDays: 14 });
    expect(revertIn(outcome)).toBeUndefined();
    expect(noteIn(outcome)).toContain('`computeTotal`, whose declaration the same commit removed in src/lib/total.ts');
  });

  it('refuses a revert that removes what other files of the repository use, naming them', async () => {
    clone.remote.commitToMain({ 'src/shared/money.ts': 'export const CENTS = 100;\n\nexport function toCents(x) {\n  return x * CENTS;\n}\n' }, 'money');
    const sha = clone.remote.commitToMain(
      {
        'src/shared/money.ts': 'export const CENTS = 100;\n\nexport function roundCents(x) {\n  return Math.round(x);\n}\n\nexport function toCents(x) {\n  return roundCents(x * CENTS);\n}\n',
        'src/checkout/refund.ts': "import { roundCents } from '../shared/money.js';\n\nexport const refund = (x) => roundCents(x);\n",
      },
      'money: round cents',
    );
    const outcome = await findRevert(await repoOf(), [suspectOf(sha, 'src/shared/money.ts', 8)], { maxAgeDays: 14 });
    expect(revertIn(outcome)).toBeUndefined();
    expect(noteIn(outcome)).toContain('would remove `roundCents`, which src/checkout/refund.ts still uses');
  });

  it('proposes the revert of a commit whose other files do not depend on the reverted lines, naming those files', async () => {
    clone.remote.commitToMain({ [FILE]: numbered(10) }, 'orders: paging');
    const sha = clone.remote.commitToMain({ [FILE]: numbered(10, (i) => (i === 4 ? '  const step4 = 0;' : undefined)), 'docs/paging.md': '# Paging\n' }, 'orders: step 4 is zero');
    const revert = revertIn(await findRevert(await repoOf(), [suspectOf(sha, FILE, 4)], { maxAgeDays: 14 }));
    expect(revert).toMatchObject({ after: numbered(10), otherFiles: ['docs/paging.md'], lines: [{ start: 4, end: 4 }] });
    expect(revert?.keptHunks).toBeUndefined();
  });
});
