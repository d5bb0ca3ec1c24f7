/**
 * Signed Slack requests dated more than five minutes either side of now are refused, and a replay
 * of a handled request is dropped by whichever web process receives it, also after a restart.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRedisDeliveryClaims } from '../../src/adapters/redis/delivery-claims.js';
import { createSlackApp, type SlackAppHandle } from '../../src/adapters/slack/create-slack-app.js';
import { createSlackUserGroups } from '../../src/adapters/slack/slack-user-groups.js';
import { createSlackWebClient } from '../../src/adapters/slack/web-client.js';
import { isDatedInFuture } from '../../src/adapters/slack/request-window.js';
import { createConfiguredAuthority } from '../../src/gateway/authority/authority.js';
import { createSlackSandbox, type SlackSandbox } from '../../src/sandbox/create-slack-sandbox.js';
import { SANDBOX_APPROVER_GROUP, SANDBOX_BOT } from '../../src/sandbox/sandbox-users.js';
import { FORM_CONTENT_TYPE, formBody, signSlackRequest } from '../../src/sandbox/sign-request.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';
import { buildBlockActions, buildSlashCommand } from '../fixtures/slack/build-payloads.js';
import { createTestRedis } from '../support/redis.js';
import { BOT_TOKEN, SIGNING_SECRET } from './support/slack-harness.js';
import { FakeIncidentCommands } from './support/fake-incident-commands.js';

describe('the request date and replays across processes', () => {
  let env: Awaited<ReturnType<typeof createTestRedis>>;
  let sandbox: SlackSandbox;
  let commands: FakeIncidentCommands;
  const apps: SlackAppHandle[] = [];
  const incident = buildAnalysedIncident();

  /** One web process of Medic: its own Slack app and port, the shared Redis claims. */
  async function startProcess(): Promise<string> {
    const client = createSlackWebClient({ token: BOT_TOKEN, apiUrl: sandbox.apiUrl, retries: 0 });
    const authority = createConfiguredAuthority({ approvers: [`group:${SANDBOX_APPROVER_GROUP}`], elevatedApprovers: [], userGroups: createSlackUserGroups(client) });
    const app = createSlackApp({
      botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET, apiUrl: sandbox.apiUrl, port: 0, host: '127.0.0.1', commands, authority,
      retries: 0, botId: SANDBOX_BOT.botId, botUserId: SANDBOX_BOT.userId, ledger: createRedisDeliveryClaims(env.redis, env.prefix),
    });
    apps.push(app);
    return (await app.start()).eventsUrl ?? '';
  }

  const send = async (url: string, body: string, headers: Record<string, string>) =>
    (await fetch(url, { method: 'POST', headers: { 'content-type': FORM_CONTENT_TYPE, ...headers }, body })).status;
  const count = (method: string) => commands.calls.filter((c) => c.method === method).length;
  const approveBody = () => formBody({ payload: JSON.stringify(buildBlockActions({ userId: 'U0APPROVER', value: JSON.stringify({ incidentId: incident.id, proposalHash: incident.proposal!.contentHash }), channel: sandbox.channelId })) });

  beforeEach(async () => {
    env = await createTestRedis();
    sandbox = await createSlackSandbox({ port: 0, signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN, medicEventsUrl: () => '' });
    commands = new FakeIncidentCommands({ authority: createConfiguredAuthority({ approvers: ['U0APPROVER'], elevatedApprovers: [] }) });
    commands.add(incident);
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.stop().catch(() => undefined);
    await sandbox.close();
    await env.cleanup();
  });

  it('is a pure check of the timestamp header against the clock', () => {
    const now = 1_800_000_000_000;
    expect(isDatedInFuture(String(now / 1000 + 301), now)).toBe(true);
    expect(isDatedInFuture(String(now / 1000 + 299), now)).toBe(false);
    expect(isDatedInFuture(String(now / 1000 - 3_600), now)).toBe(false); // stale: Bolt's own check refuses it
    expect(isDatedInFuture(undefined, now)).toBe(false);
    expect(isDatedInFuture('soon', now)).toBe(false);
  });

  it('refuses a correctly signed approve dated 10 minutes ahead with 401, and accepts one 4 minutes ahead', async () => {
    const url = await startProcess();
    const ahead = approveBody();
    expect(await send(url, ahead, signSlackRequest(SIGNING_SECRET, ahead, Date.now() / 1000 + 10 * 60))).toBe(401);
    await commands.settle();
    expect(count('approve')).toBe(0);
    const skewed = approveBody();
    expect(await send(url, skewed, signSlackRequest(SIGNING_SECRET, skewed, Date.now() / 1000 + 4 * 60))).toBe(200);
    await commands.settle();
    expect(count('approve')).toBe(1);
  });

  it('drops a replayed /medic fix sent to a restarted process, and one sent to a second process', async () => {
    const first = await startProcess();
    const responseUrl = `${sandbox.url}respond/cmd-replay`;
    sandbox.state.responseUrls.set('cmd-replay', { userId: 'U0APPROVER', channel: sandbox.channelId });
    const body = formBody(buildSlashCommand({ userId: 'U0APPROVER', text: `fix ${incident.id}`, channel: sandbox.channelId, responseUrl }));
    const headers = signSlackRequest(SIGNING_SECRET, body, Date.now() / 1000);
    expect(await send(first, body, headers)).toBe(200);
    await commands.settle();
    expect(count('rerun')).toBe(1);

    const second = await startProcess();
    expect(await send(second, body, headers)).toBe(200);
    await apps[0]!.stop();
    const restarted = await startProcess();
    expect(await send(restarted, body, headers)).toBe(200);
    await commands.settle();
    expect(count('rerun')).toBe(1);
  });
});
