import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedSampleRemote } from '../../src/sample/seed-sample-remote.js';
import { startGitHubServer } from '../loopback/github-server.js';
import { closeAfterEach } from '../support/close-after-each.js';
import { fixBranches } from '../support/git-remote.js';
import { ROOT, approveAndAwaitPullRequest, awaitIncident, checkoutErrorLines, createWorld } from '../support/medic-world.js';

const TOKEN = 'ghp_loopbackTokenForMedicTests0000000000';
const opened = closeAfterEach();

describe('the fix loop with GitHub configured', () => {
  it('opens a draft PR for the pushed branch and reports its checks to the incident and the thread', async () => {
    const w = opened(await createWorld({ llm: 'scripted' }));
    const gh = opened(await startGitHubServer({ owner: 'acme', repo: 'shop', tokens: [TOKEN] }));
    const remote = join(w.dir, 'shop.git');
    await seedSampleRemote({ sourceDir: join(ROOT, 'data/sample-service'), historyFile: join(ROOT, 'data/sample-service.history.json'), remoteDir: remote });
    await w.writeLogs('shop.jsonl', checkoutErrorLines(1));
    const medic = await w.startMedic({
      MEDIC_REPO_REMOTE: remote, GITHUB_REPOSITORY: 'acme/shop', GITHUB_TOKEN: TOKEN, GITHUB_API_URL: gh.url, MEDIC_CHECKS_INTERVAL_S: '1',
    });
    await medic.startWorkers();

    const waiting = await awaitIncident(w, medic, ['awaiting_approval']);
    const fixed = await approveAndAwaitPullRequest(w, medic, waiting);

    expect(fixBranches(remote)).toEqual([fixed.fix!.branch]);
    expect(gh.pulls).toHaveLength(1);
    expect(gh.pulls[0]).toMatchObject({ head: fixed.fix!.branch, base: 'main', draft: true });
    expect(gh.pulls[0]!.body).toContain('spreadDiscount');
    expect(gh.requests.every((r) => r.authorization?.toLowerCase() === `token ${TOKEN}`.toLowerCase())).toBe(true);

    gh.checkRuns.set(fixed.fix!.branch, [{ name: 'ci', status: 'completed', conclusion: 'success' }]);
    const checked = await w.waitFor(async () => {
      const incident = await medic.store.get(waiting.id);
      return incident?.fix?.checks === 'success' ? incident : undefined;
    }, 'the checks to be reported');
    expect(checked.state).toBe('fixed');
    // The thread reply follows the recorded state.
    await w.waitFor(async () => /Checks passed\* on `fix\/inc-[^`]+`/.test(w.chatText()), 'the checks reply');
    const trail = await medic.audit.list({ incidentId: waiting.id });
    expect(trail.filter((a) => a.details?.tool === 'github.open-pr').map((a) => a.outcome)).toEqual(['allowed']);
    expect(trail.some((a) => a.action === 'fix.checks' && a.details?.state === 'success')).toBe(true);
  }, 120_000);
});
