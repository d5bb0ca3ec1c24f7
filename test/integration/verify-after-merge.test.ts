import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Medic } from '../../src/app/create-medic.js';
import type { Incident } from '../../src/domain/incident.js';
import { seedSampleRemote } from '../../src/sample/seed-sample-remote.js';
import { startGitHubServer, type LoopbackGitHub } from '../loopback/github-server.js';
import { closeAfterEach } from '../support/close-after-each.js';
import { ROOT, approveAndAwaitPullRequest, awaitIncident, checkoutErrorLines, createWorld, type World } from '../support/medic-world.js';

const TOKEN = 'ghp_loopbackTokenForMedicTests0000000000';
const MERGE_SHA = 'c'.repeat(40);
const opened = closeAfterEach();

interface TranscriptRow { kind: string; key: string; text: string; image?: { filename: string; altText: string } }
async function thread(w: World): Promise<TranscriptRow[]> {
  return (await w.redis.lrange(`${w.prefix}console:transcript`, 0, -1)).map((row) => JSON.parse(row) as TranscriptRow).filter((row) => row.kind !== 'post' && row.kind !== 'update');
}
const said = async (w: World, pattern: RegExp) => (await thread(w)).filter((row) => pattern.test(row.text));

/** The sample's checkout failure with GitHub and a catalog whose service names its deploy marker (or none). */
async function githubWorld(verify: string): Promise<{ w: World; gh: LoopbackGitHub; env: Record<string, string> }> {
  const w = opened(await createWorld({ llm: 'scripted' }));
  const gh = opened(await startGitHubServer({ owner: 'acme', repo: 'shop', tokens: [TOKEN] }));
  const remote = join(w.dir, 'shop.git');
  await seedSampleRemote({ sourceDir: join(ROOT, 'data/sample-service'), historyFile: join(ROOT, 'data/sample-service.history.json'), remoteDir: remote });
  const catalog = join(w.dir, 'catalog.yaml');
  await writeFile(catalog, `version: 1
default_channel: incidents
repositories:
  - id: shop
    remote: ${remote}
    github: acme/shop
services:
  - name: shop
    repository: shop
    channel: incidents
${verify}
`);
  await w.writeLogs('shop.jsonl', checkoutErrorLines(1));
  const env = {
    MEDIC_CATALOG_FILE: catalog, MEDIC_CATALOG_POLL_MS: '0', GITHUB_TOKEN: TOKEN, GITHUB_API_URL: gh.url,
    MEDIC_VERIFY_INTERVAL_S: '1', MEDIC_VERIFY_QUIET_MIN: '1', MEDIC_CARD_REFRESH_S: '1', MEDIC_GIT_ALLOWED_HOSTS: '127.0.0.1',
  };
  return { w, gh, env };
}

async function pushedWithPullRequest(w: World, medic: Medic): Promise<Incident> {
  const waiting = await awaitIncident(w, medic, ['awaiting_approval']);
  await approveAndAwaitPullRequest(w, medic, waiting);
  // The watch begins with the fix round's end, a step after the PR.
  return w.waitFor(stateOf(medic, waiting.id, (i) => i.state === 'fixed'), 'the fix round to end');
}

/** Merges the fix's PR on the loopback GitHub, as the merge button does, `agoMs` ago. */
function merge(gh: LoopbackGitHub, incident: Incident, agoMs: number): string {
  const mergedAt = new Date(Date.now() - agoMs).toISOString();
  gh.mergePull(incident.fix!.pullRequest!.number, { mergeCommitSha: MERGE_SHA, mergedAt });
  return mergedAt;
}

const stateOf = (medic: Medic, id: string, wanted: (i: Incident) => boolean) => async () => {
  const incident = await medic.store.get(id);
  return incident && wanted(incident) ? incident : undefined;
};

describe('verification after the merge, with GitHub', () => {
  it('waits for the deployment, then verifies the quiet family once; its return reopens the same incident', async () => {
    const { w, gh, env } = await githubWorld('    verify: { deploy: github-deployment, environment: production }');
    const medic = await w.startMedic(env);
    await medic.startWorkers();
    const fixed = await pushedWithPullRequest(w, medic);
    expect(fixed.verification?.status).toBe('awaiting_merge');

    merge(gh, fixed, 5 * 60_000);
    await w.waitFor(stateOf(medic, fixed.id, (i) => i.verification?.status === 'awaiting_deploy'), 'the merge to be seen');
    // Merged but not deployed: no verdict, however quiet.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await medic.store.require(fixed.id)).state).toBe('fixed');

    const deployment = gh.createDeployment({ sha: MERGE_SHA, environment: 'production', createdAt: new Date(Date.now() - 4 * 60_000).toISOString() });
    gh.addDeploymentStatus(deployment.id, 'success', new Date(Date.now() - 3 * 60_000).toISOString());
    const verified = await w.waitFor(stateOf(medic, fixed.id, (i) => i.state === 'closed'), 'the verdict', 60_000);
    expect(verified.resolution).toEqual({ quietMinutes: 1, kind: 'verified' });
    expect(verified.verification).toMatchObject({ status: 'verified', deployMarker: expect.stringContaining('production') });
    await w.waitFor(async () => (await said(w, /Resolved — verified/)).length > 0, 'the verified message');
    const verdict = await said(w, /Resolved — verified/);
    expect(verdict).toHaveLength(1);
    // The before/after chart rides with the verdict, through the gateway to the chat.
    expect(verdict[0]!.image?.filename).toMatch(/\.png$/);
    // The timeline follows in the thread, from the audit.
    await w.waitFor(async () => (await thread(w)).some((row) => row.key.startsWith(`timeline:${fixed.id}:`)), 'the timeline');
    const trail = (await medic.audit.list({ incidentId: fixed.id })).map((a) => a.action);
    expect(trail.filter((a) => ['fix.merged', 'fix.deployed', 'incident.verified'].includes(a))).toEqual(['fix.merged', 'fix.deployed', 'incident.verified']);

    // The family comes back: the same incident opens again, the thread says so once.
    await w.writeLogs('shop.jsonl', checkoutErrorLines(1, Date.now()));
    const reopened = await w.waitFor(stateOf(medic, fixed.id, (i) => i.regressions.length > 0), 'the regression', 60_000);
    expect(reopened.state).toBe('reported');
    expect((await medic.store.list()).map((i) => i.id)).toEqual([fixed.id]);
    await w.waitFor(async () => (await said(w, /Regressed/)).length > 0, 'the regression message');
    expect(await said(w, /Regressed/)).toHaveLength(1);
  }, 180_000);

  it('says still failing, and opens the incident again, when the family continues after the merge', async () => {
    const { w, gh, env } = await githubWorld('');
    const medic = await w.startMedic(env);
    await medic.startWorkers();
    const fixed = await pushedWithPullRequest(w, medic);
    const before = (await medic.store.stats(fixed.id))!.count;
    // Two more failures, logged after the merge below.
    await w.writeLogs('shop.jsonl', checkoutErrorLines(2, Date.now() - 2 * 60_000));
    await w.waitFor(async () => ((await medic.store.stats(fixed.id))?.count ?? 0) >= before + 2 && true, 'the later events');
    merge(gh, fixed, 5 * 60_000);
    const open = await w.waitFor(stateOf(medic, fixed.id, (i) => i.verification?.status === 'still_failing'), 'the verdict', 60_000);
    expect(open.state).toBe('reported');
    expect(open.fix?.pullRequest?.number).toBe(fixed.fix!.pullRequest!.number);
    await w.waitFor(async () => (await said(w, /Still failing/)).length > 0, 'the still-failing message');
    const messages = await said(w, /Still failing/);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.text).toMatch(/2 events since the deploy/);
    expect((await medic.audit.list({ incidentId: fixed.id })).filter((a) => a.action === 'incident.still-failing')).toHaveLength(1);
  }, 180_000);

  it('loses nothing when the worker is killed between the merge and the verdict', async () => {
    const { w, gh, env } = await githubWorld('');
    const medic = await w.startMedic(env);
    await medic.startWorkers();
    const fixed = await pushedWithPullRequest(w, medic);
    await medic.close();

    // One worker process sees the merge, then dies with the verdict still ahead.
    const child = w.spawnWorker(env);
    merge(gh, fixed, 50_000);
    await w.waitFor(stateOf(medic, fixed.id, (i) => i.verification?.status === 'watching'), 'the merge to be seen', 60_000);
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;

    const next = await w.startMedic(env);
    await next.startWorkers();
    const verified = await w.waitFor(stateOf(next, fixed.id, (i) => i.state === 'closed'), 'the verdict after the crash', 90_000);
    expect(verified.verification?.status).toBe('verified');
    await w.waitFor(async () => (await said(w, /Resolved — verified/)).length > 0, 'the verified message');
    expect(await said(w, /Resolved — verified/)).toHaveLength(1);
    const trail = (await next.audit.list({ incidentId: fixed.id })).map((a) => a.action);
    expect(trail.filter((a) => a === 'fix.merged')).toHaveLength(1);
    expect(trail.filter((a) => a === 'incident.verified')).toHaveLength(1);
  }, 240_000);
});
