/** A branch pushed beforehand under the predictable fix name is reused only when its tree is exactly the approved change. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitFixPublisher, type GitFixPublisherOptions } from '../../src/adapters/git/git-fix-publisher.js';
import { ErrorCode } from '../../src/domain/errors.js';
import { createFixProposal, fixBranchName, type FixProposal } from '../../src/domain/fix.js';
import { SAMPLE_FILES, buildRemote, gitIn, remoteBranches, type TestRemote } from './build-remote.js';

type Planted = { files: Record<string, string>; message: string; mode?: string }[];

const FILE = 'src/checkout/discounts.ts';
const FIXED = 'export function perItem(amount: number, count: number): number {\n  return count === 0 ? 0 : Math.floor(amount / count);\n}\n';

describe('recovering an existing fix branch', () => {
  let remote: TestRemote;
  let options: GitFixPublisherOptions;
  let proposal: FixProposal;
  const branch = fixBranchName('INC-42', '2026-03-01T10:20:30Z');
  const trailer = () => `planted\n\nMedic-Proposal: ${proposal.contentHash}`;

  /** Someone else with write access pushes `branch` from their own clone. */
  function plant(commits: Planted): string {
    const clone = mkdtempSync(join(remote.root, 'attacker-'));
    gitIn(remote.root, 'clone', '--quiet', remote.bare, clone);
    gitIn(clone, 'checkout', '--quiet', '-b', branch);
    for (const commit of commits) {
      for (const [file, content] of Object.entries(commit.files)) writeFileSync(join(clone, file), content);
      gitIn(clone, 'add', '-A');
      if (commit.mode) gitIn(clone, 'update-index', `--chmod=${commit.mode}`, FILE);
      gitIn(clone, 'commit', '--quiet', '--allow-empty', '-m', commit.message);
    }
    gitIn(clone, 'push', '--quiet', 'origin', branch);
    return gitIn(clone, 'rev-parse', 'HEAD').trim();
  }

  beforeEach(() => {
    remote = buildRemote();
    options = { remoteUrl: remote.bare, branch: 'main', workDir: join(remote.root, 'data', 'repo'), worktreeRoot: mkdtempSync(join(remote.root, 'wt-')) };
    proposal = createFixProposal({ file: FILE, before: SAMPLE_FILES[FILE] ?? '', after: FIXED, explanation: 'guard the empty cart' });
  });
  afterEach(() => remote.cleanup());

  it.each<[string, () => Planted]>([
    ['other content under the trailer', (): Planted => [{ files: { [FILE]: 'export const backdoor = true;\n' }, message: trailer() }]],
    ['the approved file plus another file', (): Planted => [{ files: { [FILE]: FIXED, 'README.md': '# pwned\n' }, message: trailer() }]],
    ['the trailer buried in history under another change', (): Planted => [
      { files: { [FILE]: FIXED }, message: trailer() },
      { files: { 'README.md': '# later\n' }, message: 'unrelated' },
    ]],
    ['the approved bytes with the file made executable', (): Planted => [{ files: { [FILE]: FIXED }, message: trailer(), mode: '+x' }]],
  ])('refuses %s, leaving the branch as it was', async (_label, commits) => {
    const planted = plant(commits());
    const error = await createGitFixPublisher(options).publish({ incidentId: 'INC-42', branch, proposal, message: 'fix' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.Conflict, message: expect.stringContaining('not exactly the approved change') });
    expect(remoteBranches(remote.bare).get(branch)).toBe(planted);
  });

  it('reuses a branch that holds exactly the approved change, whatever its message says', async () => {
    const planted = plant([{ files: { [FILE]: FIXED }, message: 'no trailer at all' }]);
    expect(await createGitFixPublisher(options).publish({ incidentId: 'INC-42', branch, proposal, message: 'fix' })).toEqual({ branch, commit: planted, pushStatus: 'pushed' });
  });

  /** Someone with write access moves the default branch on by an unrelated commit. */
  function advanceMain(): void {
    const clone = mkdtempSync(join(remote.root, 'maintainer-'));
    gitIn(remote.root, 'clone', '--quiet', remote.bare, clone);
    writeFileSync(join(clone, 'CHANGELOG.md'), '# later\n');
    gitIn(clone, 'add', '-A');
    gitIn(clone, 'commit', '--quiet', '-m', 'later work on main');
    gitIn(clone, 'push', '--quiet', 'origin', 'main');
  }

  it('refuses the approved bytes planted on an older base than the one Medic prepares', async () => {
    const planted = plant([{ files: { [FILE]: FIXED }, message: trailer() }]);
    advanceMain();
    const error = await createGitFixPublisher(options).publish({ incidentId: 'INC-42', branch, proposal, message: 'fix' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.Conflict, message: expect.stringContaining('not exactly the approved change') });
    expect(remoteBranches(remote.bare).get(branch)).toBe(planted);
  });

  it("still recognises Medic's own earlier push after the default branch moved on", async () => {
    const publisher = createGitFixPublisher(options);
    const first = await publisher.publish({ incidentId: 'INC-42', branch, proposal, message: 'fix' });
    expect(first.pushStatus).toBe('pushed');
    advanceMain();
    expect(await publisher.publish({ incidentId: 'INC-42', branch, proposal, message: 'fix' })).toEqual(first);
  });
});
