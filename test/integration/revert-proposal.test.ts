import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedSampleRemote } from '../../src/sample/seed-sample-remote.js';
import { fixBranches, gitIn } from '../support/git-remote.js';
import { APPROVER, awaitFixEnd, awaitIncident, checkoutErrorLines, createWorld, ROOT, type World } from '../support/medic-world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const FILE = 'src/checkout/discounts.ts';
const SUBJECT = 'checkout: stop giving gift cards a share of order discounts';
const remoteOf = (w: World) => join(w.env.MEDIC_DATA_DIR!, 'remotes/sample-service.git');
const shaOf = (remote: string, subject: string) => gitIn(remote, ['log', '--format=%H %s', 'main']).split('\n').find((l) => l.endsWith(subject))!.split(' ')[0]!;

async function offlineWorld(overrides: Record<string, string> = {}, beforeStart?: (remote: string) => Promise<void>) {
  const w = await createWorld({ llm: 'offline' });
  world = w;
  if (beforeStart) {
    await seedSampleRemote({ sourceDir: join(ROOT, 'data/sample-service'), historyFile: join(ROOT, 'data/sample-service.history.json'), remoteDir: remoteOf(w) });
    await beforeStart(remoteOf(w));
  }
  await w.writeLogs('shop.jsonl', checkoutErrorLines(1));
  const medic = await w.startMedic(overrides);
  await medic.startWorkers();
  return { w, medic };
}

describe('the revert of a recent suspect commit, proposed without a model', () => {
  it('names the suspect commit, proposes its revert, and Approve pushes a commit that reverts exactly that change in that file', async () => {
    const { w, medic } = await offlineWorld();
    const waiting = await awaitIncident(w, medic, ['awaiting_approval']);
    const remote = remoteOf(w);
    const suspect = shaOf(remote, SUBJECT);

    expect(waiting.provenance.rca?.analyst).toBe('offline');
    expect(waiting.rca!.confidence).toBeLessThanOrEqual(0.4);
    // The failing line's own commit comes first; the planted change is the failing function's history, the evidence after it.
    const named = waiting.suspectCommits?.find((s) => s.sha === suspect);
    expect(named).toMatchObject({ file: FILE, function: 'spreadDiscount', author: 'Chen Li' });
    expect(named?.ageDays).toBeGreaterThan(0);
    expect(waiting.rca?.contributingFactors.join(' ')).toContain(suspect.slice(0, 8));
    expect(waiting.proposal).toMatchObject({ file: FILE, revertOf: { sha: suspect, subject: expect.stringContaining(SUBJECT) } });
    // Only the suspect commit's hunk at the failing lines is undone; its other hunk stays.
    expect(waiting.proposal?.after).toContain('lines.filter((line) => line.category !== \'shipping\')');
    expect(waiting.proposal?.after).toContain("return line.category !== 'gift-card' && line.category !== 'shipping';");

    const approved = await medic.commands.approve({ incidentId: waiting.id, proposalHash: waiting.proposal!.contentHash, caller: { userId: APPROVER, via: 'slack' } });
    expect(approved.ok).toBe(true);
    const fixed = await awaitFixEnd(w, medic, waiting.id);
    expect([fixed.state, fixed.error]).toEqual(['fixed', undefined]);
    const [branch] = fixBranches(remote);
    expect(branch).toBe(fixed.fix!.branch);
    expect(gitIn(remote, ['rev-list', '--count', `main..${branch}`])).toBe('1');
    expect(gitIn(remote, ['diff', '--name-only', 'main', branch!])).toBe(FILE);
    // The branch's change is part of the suspect commit's change to that file, reversed, line for line.
    const reverted = gitIn(remote, ['diff', 'main', branch!, '--', FILE]).split('\n').filter((l) => /^[+-][^+-]/.test(l));
    const original = gitIn(remote, ['diff', `${suspect}^`, suspect, '--', FILE]).split('\n').filter((l) => /^[+-][^+-]/.test(l));
    expect(reverted.length).toBeGreaterThan(0);
    expect(original).toEqual(expect.arrayContaining(reverted.map((l) => (l[0] === '+' ? '-' : '+') + l.slice(1))));
    expect(reverted.length).toBeLessThan(original.length);
    const message = gitIn(remote, ['log', '-1', '--format=%B', branch!]);
    expect(message).toContain(`Revert "${SUBJECT}"`);
    expect(message).toContain(`This reverts commit ${suspect}`);
    const trail = await medic.audit.list({ incidentId: waiting.id });
    expect(trail.some((a) => a.details?.tool === 'git.blame' && a.outcome === 'allowed')).toBe(true);
    expect(trail.some((a) => a.details?.tool === 'git.commit-file' && a.outcome === 'allowed')).toBe(true);
  }, 120_000);

  it('proposes no revert when the suspect commit is older than the window', async () => {
    const { w, medic } = await offlineWorld({ MEDIC_REVERT_MAX_AGE_DAYS: '1' });
    const reported = await awaitIncident(w, medic, ['reported']);
    expect(reported.proposal).toBeUndefined();
    expect(reported.suspectCommits?.map((s) => s.sha)).toContain(shaOf(remoteOf(w), SUBJECT));
    expect(reported.proposalNote).toContain('MEDIC_REVERT_MAX_AGE_DAYS');
    expect(fixBranches(remoteOf(w))).toEqual([]);
  }, 120_000);

  it('proposes no revert when a later commit changed the failing hunk the suspect commit changed', async () => {
    const { w, medic } = await offlineWorld({}, async (remote) => {
      const scratch = mkdtempSync(join(tmpdir(), 'medic-revert-'));
      try {
        const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Dana', '-c', 'user.email=dana@shop.example', '-c', 'commit.gpgsign=false', ...args], { cwd: scratch, encoding: 'utf8' });
        git('clone', '--quiet', remote, '.');
        const path = join(scratch, FILE);
        writeFileSync(path, readFileSync(path, 'utf8').replace(' * exactly the discount that item carried.', ' * exactly the discount that item carried (in whole cents).'));
        // Dated before the error, so it is a change the running service had.
        execFileSync('git', ['-c', 'user.name=Dana', '-c', 'user.email=dana@shop.example', '-c', 'commit.gpgsign=false', 'commit', '--quiet', '-am', 'checkout: say the shares are whole cents'], { cwd: scratch, env: { ...process.env, GIT_AUTHOR_DATE: '2026-11-30T07:00:00Z', GIT_COMMITTER_DATE: '2026-11-30T07:00:00Z' } });
        git('push', '--quiet', 'origin', 'main');
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    });
    const reported = await awaitIncident(w, medic, ['reported']);
    expect(reported.proposal).toBeUndefined();
    expect(reported.proposalNote).toContain('does not revert cleanly');
    expect(fixBranches(remoteOf(w))).toEqual([]);
  }, 120_000);
});
