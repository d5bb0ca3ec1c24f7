import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approverIds, elevatedIds, sandboxRefusal } from '../../src/app/chat-mode.js';
import { startRuntime } from '../../src/app/start-runtime.js';
import { loadConfig } from '../../src/config/load-config.js';
import { ErrorCode } from '../../src/domain/errors.js';
import { createSlackSandbox, type SlackSandbox } from '../../src/sandbox/create-slack-sandbox.js';

const BOT = 'xoxb-sandbox-guard-test';
let sandbox: SlackSandbox;

beforeAll(async () => {
  sandbox = await createSlackSandbox({ port: 0, signingSecret: 'guard-secret', botToken: BOT, medicEventsUrl: 'http://127.0.0.1:9/slack/events' });
});
afterAll(() => sandbox.close());

/** A raw request, so Host, Origin and content type are exactly what an attacker's page would send. */
function send(path: string, options: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> {
  const url = new URL(path, sandbox.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: options.method ?? 'POST', headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const own = () => new URL(sandbox.url).host;
const click = JSON.stringify({ userId: 'U0APPROVER', messageTs: '1.1', blockId: 'medic_decision', actionId: 'medic_approve' });

describe('the local sandbox refuses requests that are not its own page', () => {
  it('listens on loopback only', async () => {
    await expect(createSlackSandbox({ port: 0, host: '0.0.0.0', signingSecret: 's', botToken: BOT, medicEventsUrl: 'http://127.0.0.1:9/' })).rejects.toMatchObject({ code: ErrorCode.ConfigInvalid });
  });

  it('refuses a cross-site text/plain POST (a form or a no-preflight fetch from another site)', async () => {
    const reply = await send('/sandbox/click', { headers: { host: own(), origin: 'https://evil.example', 'content-type': 'text/plain' }, body: click });
    expect(reply.status).toBe(403);
    const noOrigin = await send('/sandbox/click', { headers: { host: own(), 'content-type': 'text/plain;charset=UTF-8' }, body: click });
    expect(noOrigin.status).toBe(403);
    const fetchMetadata = await send('/sandbox/click', { headers: { host: own(), 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }, body: click });
    expect(fetchMetadata.status).toBe(403);
  });

  it('refuses JSON from another origin and any request under a rebound host name', async () => {
    expect((await send('/sandbox/click', { headers: { host: own(), origin: 'http://127.0.0.1:1', 'content-type': 'application/json' }, body: click })).status).toBe(403);
    expect((await send('/sandbox/state?user=U0APPROVER', { method: 'GET', headers: { host: `evil.example:${new URL(sandbox.url).port}` } })).status).toBe(403);
    expect((await send('/sandbox/click', { headers: { host: 'attacker.example', 'content-type': 'application/json' }, body: click })).status).toBe(403);
  });

  it('requires an explicit user: a click naming no one acts as nobody', async () => {
    const reply = await send('/sandbox/click', { headers: { host: own(), origin: `http://${own()}`, 'content-type': 'application/json' }, body: JSON.stringify({ messageTs: '1.1', blockId: 'b', actionId: 'a' }) });
    expect(reply.status).toBe(400);
    expect(reply.body).toContain('user_required');
  });

  it('/sandbox/state carries no button values', async () => {
    const value = JSON.stringify({ incidentId: 'inc-1', proposalHash: 'secret-binding-hash' });
    const post = await fetch(`${sandbox.apiUrl}chat.postMessage`, {
      method: 'POST', headers: { authorization: `Bearer ${BOT}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: sandbox.channelId, text: 'card', blocks: [{ type: 'actions', block_id: 'medic_decision', elements: [{ type: 'button', action_id: 'medic_approve', text: { type: 'plain_text', text: 'Approve' }, value }] }] }),
    });
    expect(((await post.json()) as { ok: boolean }).ok).toBe(true);
    const state = await send('/sandbox/state?user=U0APPROVER', { method: 'GET', headers: { host: own() } });
    expect(state.status).toBe(200);
    expect(state.body).toContain('Approve');
    expect(state.body).not.toContain('secret-binding-hash');
    expect(sandbox.state.messages.at(-1)?.blocks).toEqual([expect.objectContaining({ elements: [expect.objectContaining({ value })] })]);
  });
});

describe('the sandbox never stands in for real approvals', () => {
  const github = { GITHUB_REPOSITORY: 'acme/shop', GITHUB_TOKEN: 'ghp_x', MEDIC_REPO_REMOTE: 'https://github.com/acme/shop.git' };

  it('refuses to start beside GitHub or in production unless forced', () => {
    expect(sandboxRefusal(loadConfig({}))).toBeUndefined();
    expect(sandboxRefusal(loadConfig(github))).toMatch(/GitHub is configured.*MEDIC_SANDBOX_FORCE=true/);
    expect(sandboxRefusal(loadConfig({ NODE_ENV: 'production' }))).toMatch(/NODE_ENV=production/);
    expect(sandboxRefusal(loadConfig({ NODE_ENV: 'production', MEDIC_CHAT: 'console' }))).toBeUndefined();
    expect(sandboxRefusal(loadConfig({ ...github, MEDIC_SANDBOX_FORCE: 'true' }))).toBeUndefined();
  });

  it('refuses beside a real non-GitHub remote or git credentials, and gives its people no approval there', () => {
    const gitlab = { MEDIC_REPO_REMOTE: 'https://gitlab.example/acme/shop.git' };
    expect(sandboxRefusal(loadConfig(gitlab))).toMatch(/MEDIC_REPO_REMOTE names a real remote \(gitlab\.example\)/);
    expect(sandboxRefusal(loadConfig({ ...gitlab, GIT_TOKEN: 'glpat-x' }))).toMatch(/git credentials are configured/);
    expect(sandboxRefusal(loadConfig({ MEDIC_GIT_TOKENS: 'gitlab.example=glpat-x' }))).toMatch(/git credentials are configured/);
    expect(sandboxRefusal(loadConfig({ MEDIC_REPO_REMOTE: 'git@gitlab.example:acme/shop.git' }))).toMatch(/real remote/);
    expect(approverIds(loadConfig({ ...gitlab, MEDIC_SANDBOX_FORCE: 'true', MEDIC_APPROVERS: 'U_REAL' }))).toEqual(['U_REAL']);
    // The sandbox's own remotes stay local: a path or a loopback server.
    expect(sandboxRefusal(loadConfig({ MEDIC_REPO_REMOTE: '/srv/git/shop.git' }))).toBeUndefined();
    expect(sandboxRefusal(loadConfig({ MEDIC_REPO_REMOTE: 'http://127.0.0.1:9418/shop.git' }))).toBeUndefined();
  });

  it('startRuntime refuses before it opens anything', async () => {
    await expect(startRuntime({ NODE_ENV: 'production', MEDIC_EMBEDDED_REDIS: 'false', REDIS_URL: 'redis://127.0.0.1:1' }, { role: 'web' })).rejects.toMatchObject({ code: ErrorCode.ConfigInvalid });
  });

  it('sandbox users approve only on a purely local Medic', () => {
    expect(approverIds(loadConfig({}))).toContain('U0APPROVER');
    expect(elevatedIds(loadConfig({}))).toContain('U0ELEVATED');
    const forced = loadConfig({ ...github, MEDIC_SANDBOX_FORCE: 'true', MEDIC_APPROVERS: 'U_REAL' });
    expect(approverIds(forced)).toEqual(['U_REAL']);
    expect(elevatedIds(forced)).not.toContain('U0ELEVATED');
  });
});
