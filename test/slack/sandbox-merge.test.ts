import { mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitFixPublisher } from '../../src/adapters/git/git-fix-publisher.js';
import { createGitMergeState } from '../../src/adapters/git/git-merge-state.js';
import { createFixProposal, fixBranchName } from '../../src/domain/fix.js';
import { createSlackSandbox, type SlackSandbox } from '../../src/sandbox/create-slack-sandbox.js';
import type { LocalRemote } from '../../src/sandbox/merge-fix-branch.js';
import { buildRemote, gitIn, remoteBranches, SAMPLE_FILES, type TestRemote } from '../git/build-remote.js';

const BOT = 'xoxb-sandbox-merge-test';
const FILE = 'src/checkout/discounts.ts';
const FIXED = 'export function perItem(amount: number, count: number): number {\n  return count === 0 ? 0 : Math.floor(amount / count);\n}\n';

describe("the sandbox's Merge fix branch", () => {
  let remote: TestRemote;
  let sandbox: SlackSandbox;
  let remotes: LocalRemote[];
  let slack: WebClient;
  let workDir: string;

  beforeEach(async () => {
    remote = buildRemote();
    workDir = join(remote.root, 'data', 'repo');
    remotes = [{ path: remote.bare, branch: 'main' }];
    sandbox = await createSlackSandbox({ port: 0, signingSecret: 'merge-secret', botToken: BOT, medicEventsUrl: 'http://127.0.0.1:9/slack/events', localRemotes: () => remotes });
    slack = new WebClient(BOT, { slackApiUrl: sandbox.apiUrl, retryConfig: { retries: 0 } });
  });
  afterEach(async () => {
    await sandbox.close();
    remote.cleanup();
  });

  /** Medic's way: the publisher pushes the branch from its clone, and the thread announces it. */
  async function publishAndAnnounce(incidentId: string, after = FIXED): Promise<{ branch: string; commit: string; ts: string }> {
    const branch = fixBranchName(incidentId, '2026-03-01T10:20:30Z');
    mkdirSync(join(remote.root, 'wt'), { recursive: true });
    const publisher = createGitFixPublisher({ remoteUrl: remote.bare, branch: 'main', workDir, worktreeRoot: join(remote.root, 'wt') });
    const proposal = createFixProposal({ file: FILE, before: SAMPLE_FILES[FILE] ?? '', after, explanation: 'guard the empty cart' });
    const pushed = await publisher.publish({ incidentId, branch, proposal, message: 'Guard the empty cart' });
    const ts = await announce(`*Branch pushed* — \`${branch}\` (commit \`${pushed.commit.slice(0, 12)}\`).`);
    return { branch, commit: pushed.commit, ts };
  }

  async function announce(text: string): Promise<string> {
    const card = await slack.chat.postMessage({ channel: sandbox.channelId, text: `Incident card` });
    const reply = await slack.chat.postMessage({ channel: sandbox.channelId, thread_ts: card.ts!, text });
    return reply.ts!;
  }

  function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
    const url = new URL(path, sandbox.url);
    return new Promise((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: body === undefined ? 'GET' : 'POST', headers: { host: url.host, origin: url.origin, 'content-type': 'application/json', ...headers } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') as Record<string, unknown> }));
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  it('merges the announced branch into the local remote with a merge commit, and merge state then says merged', async () => {
    const { branch, commit, ts } = await publishAndAnnounce('INC-5');
    const mergeState = createGitMergeState({ remoteUrl: remote.bare, branch: 'main', workDir });
    expect(await mergeState({ branch })).toEqual({ merged: false });
    expect((await post('/sandbox/merge', undefined)).body).toEqual({ available: true });

    const merged = await post('/sandbox/merge', { userId: 'U0VIEWER', messageTs: ts });
    expect(merged).toMatchObject({ status: 200, body: { ok: true, branch, into: 'main', alreadyMerged: false, remote: remote.bare } });
    const head = remoteBranches(remote.bare).get('main');
    expect(merged.body.commit).toBe(head);
    expect(gitIn(remote.bare, 'rev-list', '--parents', '-n', '1', 'main').trim().split(' ')).toEqual([head, expect.any(String), commit]);
    expect(gitIn(remote.bare, 'show', `main:${FILE}`)).toBe(FIXED);
    // The thread says who merged it; merge state, from Medic's own clone, agrees.
    const note = sandbox.state.messages.at(-1);
    expect(note).toMatchObject({ user: 'U0VIEWER', threadTs: sandbox.state.find(ts)?.threadTs, text: expect.stringContaining(`\`${branch}\` merged into \`main\` by <@U0VIEWER>`) });
    expect(await mergeState({ branch })).toMatchObject({ merged: true, commit: head });

    // Again: nothing new is pushed.
    const again = await post('/sandbox/merge', { userId: 'U0APPROVER', messageTs: ts });
    expect(again).toMatchObject({ status: 200, body: { ok: true, alreadyMerged: true, commit: head } });
    expect(remoteBranches(remote.bare).get('main')).toBe(head);
  });

  it('refuses a conflicting branch without touching the default branch', async () => {
    const { ts } = await publishAndAnnounce('INC-6');
    const before = remote.commitToMain({ [FILE]: 'export const perItem = () => 0;\n' }, 'someone else changed the same lines');
    const reply = await post('/sandbox/merge', { userId: 'U0APPROVER', messageTs: ts });
    expect(reply).toMatchObject({ status: 409, body: { ok: false, error: 'ERR_CONFLICT', detail: expect.stringContaining('does not merge cleanly into main') } });
    expect(remoteBranches(remote.bare).get('main')).toBe(before);
  });

  it('merges only a fix branch Medic announced in a thread and that exists on a local remote', async () => {
    const { ts } = await publishAndAnnounce('INC-7');
    expect(await post('/sandbox/merge', { messageTs: ts })).toMatchObject({ status: 400, body: { error: 'user_required' } });
    expect(await post('/sandbox/merge', { userId: 'U0APPROVER', messageTs: '999.000001' })).toMatchObject({ status: 404, body: { error: 'message_not_found' } });
    const top = await slack.chat.postMessage({ channel: sandbox.channelId, text: 'Card naming `fix/INC-7-20260301102030`' });
    expect(await post('/sandbox/merge', { userId: 'U0APPROVER', messageTs: top.ts })).toMatchObject({ status: 404, body: { error: 'message_not_found' } });
    const plain = await announce('*Approved* — Medic is preparing the fix.');
    expect(await post('/sandbox/merge', { userId: 'U0APPROVER', messageTs: plain })).toMatchObject({ status: 400, body: { error: 'no_fix_branch' } });
    const ghost = await announce('*Branch pushed* — `fix/INC-404-20260301102030`.');
    expect(await post('/sandbox/merge', { userId: 'U0APPROVER', messageTs: ghost })).toMatchObject({ status: 404, body: { detail: expect.stringContaining('No branch fix/INC-404-20260301102030') } });
    const main = await announce('*Branch pushed* — `main`.');
    expect(await post('/sandbox/merge', { userId: 'U0APPROVER', messageTs: main })).toMatchObject({ status: 400, body: { error: 'no_fix_branch' } });
    // A network remote is never written to, even when the catalog names one.
    remotes = [{ path: 'https://github.com/acme/shop.git', branch: 'main' }];
    expect((await post('/sandbox/merge', undefined)).body).toEqual({ available: false });
    expect(await post('/sandbox/merge', { userId: 'U0APPROVER', messageTs: ts })).toMatchObject({ status: 400, body: { error: 'ERR_FIX_REFUSED', detail: expect.stringContaining('network remote') } });
    // Guarded like every page action: not from another site, JSON only.
    remotes = [{ path: remote.bare, branch: 'main' }];
    expect((await post('/sandbox/merge', { userId: 'U0APPROVER', messageTs: ts }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await post('/sandbox/merge', { userId: 'U0APPROVER', messageTs: ts }, { 'content-type': 'text/plain' })).status).toBe(403);
    expect(remoteBranches(remote.bare).get('main')).toBe(gitIn(remote.bare, 'rev-parse', 'main').trim());
    expect(gitIn(remote.bare, 'rev-list', '--count', 'main').trim()).toBe('1');
  });
});
