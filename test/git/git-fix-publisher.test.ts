import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitFixPublisher, type GitFixPublisherOptions } from '../../src/adapters/git/git-fix-publisher.js';
import { ErrorCode } from '../../src/domain/errors.js';
import { createFixProposal, fixBranchName, hashFixContent, type FixProposal } from '../../src/domain/fix.js';
import { SAMPLE_FILES, buildRemote, gitIn, remoteBranches, type TestRemote } from './build-remote.js';

const FILE = 'src/checkout/discounts.ts';
const FIXED = 'export function perItem(amount: number, count: number): number {\n  return count === 0 ? 0 : Math.floor(amount / count);\n}\n';

function proposalFor(file = FILE, after = FIXED, before = SAMPLE_FILES[file] ?? ''): FixProposal {
  return createFixProposal({ file, before, after, explanation: 'guard the empty cart' });
}

describe('createGitFixPublisher (local bare remote)', () => {
  let remote: TestRemote;
  let options: GitFixPublisherOptions;
  const branch = fixBranchName('INC-42', '2026-03-01T10:20:30Z');
  beforeEach(() => {
    remote = buildRemote();
    options = { remoteUrl: remote.bare, branch: 'main', workDir: join(remote.root, 'data', 'repo'), worktreeRoot: mkdtempSync(join(remote.root, 'wt-')) };
  });
  afterEach(() => remote.cleanup());

  it('pushes one fix branch with one commit touching exactly the approved file', async () => {
    const publisher = createGitFixPublisher(options);
    const proposal = proposalFor();
    const result = await publisher.publish({ incidentId: 'INC-42', branch, proposal, message: 'Guard the empty cart in perItem\n\nToken ghp_abcdefghijklmnopqrstuvwxyz0123 leaked in a log line.' });
    expect(result).toMatchObject({ branch, pushStatus: 'pushed' });
    const branches = remoteBranches(remote.bare);
    expect([...branches.keys()].sort()).toEqual([branch, 'main']);
    expect(branches.get(branch)).toBe(result.commit);
    expect(gitIn(remote.bare, 'rev-list', '--count', `main..${branch}`).trim()).toBe('1');
    expect(gitIn(remote.bare, 'diff-tree', '--no-commit-id', '--name-only', '-r', branch).trim()).toBe(FILE);
    expect(gitIn(remote.bare, 'show', `${branch}:${FILE}`)).toBe(FIXED);
    const message = gitIn(remote.bare, 'log', '-1', '--format=%B', branch);
    expect(message).toContain('INC-42');
    expect(message).toContain(`Medic-Proposal: ${proposal.contentHash}`);
    expect(message).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123');
    expect(message).toContain('[REDACTED:github-token]');
    // The worktree is gone and the clone's default branch was never touched.
    expect(readdirSync(options.worktreeRoot!)).toEqual([]);
    expect(gitIn(options.workDir, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(branches.get('main')).toBe(gitIn(remote.bare, 'rev-parse', 'main').trim());
  });

  it('is idempotent by branch: publishing again reuses the pushed commit', async () => {
    const publisher = createGitFixPublisher(options);
    const input = { incidentId: 'INC-42', branch, proposal: proposalFor(), message: 'Guard the empty cart' };
    const first = await publisher.publish(input);
    const second = await createGitFixPublisher(options).publish(input);
    expect(second).toEqual(first);
    expect(gitIn(remote.bare, 'rev-list', '--count', `main..${branch}`).trim()).toBe('1');
  });

  it('recovers from a crash between commit and push without a second branch or commit', async () => {
    const input = { incidentId: 'INC-42', branch, proposal: proposalFor(), message: 'Guard the empty cart' };
    let committed = '';
    const crashing = createGitFixPublisher({ ...options, beforePush: ({ commit }) => {
      committed = commit;
      throw new Error('worker killed before the push');
    } });
    await expect(crashing.publish(input)).rejects.toThrow('worker killed');
    expect(remoteBranches(remote.bare).has(branch)).toBe(false);
    expect(gitIn(options.workDir, 'rev-parse', `refs/heads/${branch}`).trim()).toBe(committed);

    const result = await createGitFixPublisher(options).publish(input);
    expect(result).toEqual({ branch, commit: committed, pushStatus: 'pushed' });
    expect([...remoteBranches(remote.bare).keys()].filter((b) => b.startsWith('fix/'))).toEqual([branch]);
    expect(gitIn(remote.bare, 'rev-list', '--count', `main..${branch}`).trim()).toBe('1');
    expect(gitIn(options.workDir, 'rev-list', '--count', `origin/main..${branch}`).trim()).toBe('1');
  });

  it('refuses a stale approval when the file changed on the default branch, offering a re-run', async () => {
    const publisher = createGitFixPublisher(options);
    remote.commitToMain({ [FILE]: 'export const rewritten = true;\n' }, 'someone else changed discounts');
    const error = await publisher.publish({ incidentId: 'INC-42', branch, proposal: proposalFor(), message: 'fix' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.StaleApproval, message: expect.stringContaining('/medic fix INC-42') });
    expect(remoteBranches(remote.bare).has(branch)).toBe(false);
  });

  it.each([
    ['a path with ..', '../outside.ts', /"\.\." segments/],
    ['an absolute path', '/etc/passwd', /absolute paths/],
    ['a symlink out of the repository', 'src/outside-link.ts', /symlink/],
    ['a binary file', 'src/logo.ts', /binary/],
    ['a .git path', '.git/config', /\.git directory/],
  ])('refuses %s with a clear reason', async (_label, file, reason) => {
    const publisher = createGitFixPublisher(options);
    const error = await publisher.publish({ incidentId: 'INC-42', branch, proposal: proposalFor(file, 'export const x = 1;\n', 'anything'), message: 'fix' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: expect.stringMatching(/ERR_FIX_REFUSED|ERR_STALE_APPROVAL/), message: expect.stringMatching(reason) });
    expect(remoteBranches(remote.bare).has(branch)).toBe(false);
  });

  it('refuses an unchanged file, content that is not what was approved, and non-fix branches', async () => {
    const publisher = createGitFixPublisher(options);
    const same = proposalFor(FILE, SAMPLE_FILES[FILE]);
    await expect(publisher.publish({ incidentId: 'INC-42', branch, proposal: same, message: 'fix' })).rejects.toMatchObject({ code: ErrorCode.FixRefused, message: expect.stringContaining('unchanged') });
    const tampered = { ...proposalFor(), after: `${FIXED}// and a backdoor\n` };
    await expect(publisher.publish({ incidentId: 'INC-42', branch, proposal: tampered, message: 'fix' })).rejects.toMatchObject({ message: expect.stringContaining('differs from the approved') });
    for (const bad of ['main', 'feature/x', 'fix/../main', '+fix/INC-42']) {
      await expect(publisher.publish({ incidentId: 'INC-42', branch: bad, proposal: proposalFor(), message: 'fix' })).rejects.toMatchObject({ code: ErrorCode.FixRefused, message: expect.stringContaining('fix/<incident>') });
    }
    expect([...remoteBranches(remote.bare).keys()]).toEqual(['main']);
  });

  it('refuses to reuse a remote branch that holds a different change', async () => {
    await createGitFixPublisher(options).publish({ incidentId: 'INC-42', branch, proposal: proposalFor(), message: 'fix' });
    const other = proposalFor(FILE, `${FIXED}// another idea\n`);
    expect(other.contentHash).toBe(hashFixContent(FILE, `${FIXED}// another idea\n`));
    await expect(createGitFixPublisher(options).publish({ incidentId: 'INC-42', branch, proposal: other, message: 'fix' })).rejects.toMatchObject({ code: ErrorCode.Conflict });
  });

  it('cleans up a worktree a crashed run left behind', async () => {
    const publisher = createGitFixPublisher(options);
    await createGitFixPublisher({ ...options, beforePush: () => { throw new Error('crash'); } }).publish({ incidentId: 'INC-42', branch, proposal: proposalFor(), message: 'fix' }).catch(() => undefined);
    // Simulate a kill before the finally ran: the branch is checked out in a leftover worktree.
    const stale = join(remote.root, 'stale-worktree');
    gitIn(options.workDir, 'worktree', 'add', '--quiet', stale, branch);
    rmSync(join(stale, 'README.md'));
    const result = await publisher.publish({ incidentId: 'INC-42', branch, proposal: proposalFor(), message: 'fix' });
    expect(result.pushStatus).toBe('pushed');
    expect(existsSync(stale)).toBe(false);
  });
});
