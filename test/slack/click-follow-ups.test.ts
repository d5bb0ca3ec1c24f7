/**
 * The web role only verifies, queues and acks a click; a worker answers it. Real Bolt receiver,
 * real Redis stream, the real incident use-cases and audit, the chat adapter over the sandbox's
 * Web API: the ack comes first, the worker's ephemeral after, and every refusal of the request
 * path (forged, replayed, non-approver) still holds, now with the answer coming from the worker.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditLog } from '../../src/adapters/redis/audit-log.js';
import { createClickFollowUpStream, startClickAnswerer, type ClickAnswerer } from '../../src/adapters/redis/click-follow-up-stream.js';
import { createRedisDeliveryClaims } from '../../src/adapters/redis/delivery-claims.js';
import { createIncidentStore } from '../../src/adapters/redis/incident-store.js';
import { createSlackApp, type SlackAppHandle } from '../../src/adapters/slack/create-slack-app.js';
import { createSlackChat } from '../../src/adapters/slack/slack-chat.js';
import { createSlackWebClient } from '../../src/adapters/slack/web-client.js';
import { createFixProposal } from '../../src/domain/fix.js';
import type { Incident } from '../../src/domain/incident.js';
import { createConfiguredAuthority } from '../../src/gateway/authority/authority.js';
import type { ClickFollowUp } from '../../src/ports/click-follow-ups.js';
import { createSlackSandbox, type SlackSandbox } from '../../src/sandbox/create-slack-sandbox.js';
import { SANDBOX_BOT } from '../../src/sandbox/sandbox-users.js';
import { formBody, postSigned, signSlackRequest, FORM_CONTENT_TYPE } from '../../src/sandbox/sign-request.js';
import { answerClick, tellThroughChat } from '../../src/use-cases/answer-click.js';
import { createIncidentCommands } from '../../src/use-cases/create-incident-commands.js';
import { buildBlockActions } from '../fixtures/slack/build-payloads.js';
import { buildEvent, buildIncident } from '../support/builders.js';
import { createTestRedis } from '../support/redis.js';

const SECRET = 'click-follow-up-signing-secret';
const TOKEN = 'xoxb-click-follow-ups';
const APPROVER = 'U0APPROVER';
const VIEWER = 'U0VIEWER';
const proposal = createFixProposal({ file: 'src/a.ts', before: 'a\n', after: 'b\n', explanation: 'fix' });
const silent = { warn: () => undefined, error: () => undefined };

let ctx: Awaited<ReturnType<typeof createTestRedis>>;
let sandbox: SlackSandbox;
let slack: SlackAppHandle;
let eventsUrl: string;
let answerer: ClickAnswerer | undefined;
let startAnswerer: () => Promise<void>;
let startApp: (followUps: Parameters<typeof createSlackApp>[0]['followUps']) => Promise<{ url: string; stop: () => Promise<void> }>;
const fixes: string[] = [];

beforeEach(async () => {
  ctx = await createTestRedis();
  fixes.length = 0;
  sandbox = await createSlackSandbox({ port: 0, signingSecret: SECRET, botToken: TOKEN, medicEventsUrl: 'http://127.0.0.1:9/unused' });
  const store = createIncidentStore(ctx.redis, ctx.prefix);
  const audit = createAuditLog(ctx.redis, ctx.prefix);
  const event = buildEvent({ id: 'e1' });
  const incident: Incident = { ...buildIncident({ firstEvent: event }), state: 'awaiting_approval', proposal, card: { channel: sandbox.channelId, ts: '1.1' } };
  await store.ingest([{ event, fingerprint: 'fp', candidate: incident }], Date.now());
  const authority = createConfiguredAuthority({ approvers: [APPROVER], elevatedApprovers: [] });
  const commands = createIncidentCommands({
    store, audit, authority, clock: () => new Date(),
    recordApproval: async () => undefined,
    enqueueFix: async (id, hash) => void fixes.push(`${id}:${hash}`),
    enqueueAnalysis: async () => undefined,
    announce: async () => undefined,
    learn: async () => undefined,
  });
  const ledger = createRedisDeliveryClaims(ctx.redis, ctx.prefix);
  startApp = async (followUps) => {
    const app = createSlackApp({
      botToken: TOKEN, signingSecret: SECRET, apiUrl: sandbox.apiUrl, port: 0, host: '127.0.0.1', commands, authority, audit, retries: 0,
      botId: SANDBOX_BOT.botId, botUserId: SANDBOX_BOT.userId, ledger, ...(followUps ? { followUps } : {}),
    });
    return { url: (await app.start()).eventsUrl ?? '', stop: () => app.stop() };
  };
  slack = createSlackApp({
    botToken: TOKEN, signingSecret: SECRET, apiUrl: sandbox.apiUrl, port: 0, host: '127.0.0.1', commands, authority, audit, retries: 0,
    botId: SANDBOX_BOT.botId, botUserId: SANDBOX_BOT.userId, ledger, followUps: createClickFollowUpStream(ctx.redis, ctx.prefix),
  });
  eventsUrl = (await slack.start()).eventsUrl ?? '';
  const chat = createSlackChat({ client: createSlackWebClient({ token: TOKEN, apiUrl: sandbox.apiUrl }), channel: 'incidents' });
  const deps = { commands, logger: silent, tell: tellThroughChat(chat, audit, silent), claim: (key: string) => ledger.claim(key) };
  startAnswerer = async () => {
    answerer = await startClickAnswerer(ctx.redis, ctx.prefix, (click: ClickFollowUp) => answerClick(deps, click), { logger: silent, blockMs: 50 });
  };
});

afterEach(async () => {
  await answerer?.close();
  answerer = undefined;
  await slack.stop();
  await sandbox.close();
  await ctx.cleanup();
});

const approveBody = (userId: string) => formBody({ payload: JSON.stringify(buildBlockActions({ userId, value: JSON.stringify({ incidentId: 'inc-test', proposalHash: proposal.contentHash }), channel: sandbox.channelId })) });
const ephemeralsFor = (user: string) => sandbox.state.messages.filter((m) => m.ephemeralFor === user);
const queued = () => ctx.redis.xlen(`${ctx.prefix}slack:click-follow-ups`);
const auditOf = async () => (await createAuditLog(ctx.redis, ctx.prefix).list({ count: 100 })).map((a) => [a.action, a.outcome, a.actor.id]);

async function until(what: string, condition: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a click acked by the web role and answered by a worker', () => {
  it('acks before anything is answered, and the worker approves and tells the clicker', async () => {
    const ack = await postSigned(eventsUrl, SECRET, approveBody(APPROVER));
    expect(ack.status).toBe(200);
    // No worker yet: the click waits in Redis, unanswered, with nothing approved.
    expect(await queued()).toBe(1);
    expect(fixes).toEqual([]);
    expect(ephemeralsFor(APPROVER)).toHaveLength(0);
    await startAnswerer();
    await until('the worker to answer', () => ephemeralsFor(APPROVER).length === 1);
    expect(fixes).toEqual([`inc-test:${proposal.contentHash}`]);
    expect(ephemeralsFor(APPROVER)[0]?.text).toMatch(/approv/i);
    await until('the click to leave the stream', async () => (await queued()) === 0);
    expect(await auditOf()).toEqual(expect.arrayContaining([['incident.approve', 'allowed', APPROVER], ['slack.ephemeral', 'done', APPROVER]]));
  });

  it('refuses a forged request before it is queued, and runs a replayed one once', async () => {
    await startAnswerer();
    const body = approveBody(APPROVER);
    const forged = await postSigned(eventsUrl, 'not-the-signing-secret', body);
    expect(forged.status).toBe(401);
    expect(await queued()).toBe(0);
    const headers = { 'content-type': FORM_CONTENT_TYPE, ...signSlackRequest(SECRET, body, Date.now() / 1000) };
    const first = await fetch(eventsUrl, { method: 'POST', headers, body });
    const replay = await fetch(eventsUrl, { method: 'POST', headers, body });
    expect([first.status, replay.status]).toEqual([200, 200]);
    await until('the worker to answer', () => ephemeralsFor(APPROVER).length >= 1);
    await until('the stream to drain', async () => (await queued()) === 0);
    expect(ephemeralsFor(APPROVER)).toHaveLength(1);
    expect(fixes).toHaveLength(1);
  });

  it('answers a Slack retry of a queued click once (same delivery, new signature)', async () => {
    await startAnswerer();
    const body = approveBody(APPROVER);
    const first = await postSigned(eventsUrl, SECRET, body);
    const retry = await postSigned(eventsUrl, SECRET, body, { now: () => Date.now() + 1_000, headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' } });
    expect([first.status, retry.status]).toEqual([200, 200]);
    await until('the worker to answer', () => ephemeralsFor(APPROVER).length >= 1);
    await until('the stream to drain', async () => (await queued()) === 0);
    expect(ephemeralsFor(APPROVER)).toHaveLength(1);
    expect(fixes).toHaveLength(1);
  });

  it('refuses a non-approver in the worker, tells them why and audits the refusal', async () => {
    await startAnswerer();
    const ack = await postSigned(eventsUrl, SECRET, approveBody(VIEWER));
    expect(ack.status).toBe(200);
    await until('the refusal to reach the clicker', () => ephemeralsFor(VIEWER).length === 1);
    expect(ephemeralsFor(VIEWER)[0]?.text).toContain('Only configured approvers');
    expect(fixes).toEqual([]);
    await until('the refusal to be audited', async () => (await auditOf()).some((a) => a[0] === 'incident.approve'));
    expect(await auditOf()).toEqual(expect.arrayContaining([['incident.approve', 'denied', VIEWER], ['slack.ephemeral', 'done', VIEWER]]));
  });

  it('drops a malformed entry with a warning and goes on answering', async () => {
    await ctx.redis.xadd(`${ctx.prefix}slack:click-follow-ups`, '*', 'click', '{"actionId":');
    await startAnswerer();
    await postSigned(eventsUrl, SECRET, approveBody(APPROVER));
    await until('the worker to answer', () => ephemeralsFor(APPROVER).length === 1);
    await until('the stream to drain', async () => (await queued()) === 0);
  });

  it('refuses a correctly signed but stale request, and a wrong content type, as Bolt does', async () => {
    await startAnswerer();
    const body = approveBody(APPROVER);
    const stale = await postSigned(eventsUrl, SECRET, body, { now: () => Date.now() - 6 * 60_000 });
    expect(stale.status).toBe(401);
    const json = await postSigned(eventsUrl, SECRET, body, { contentType: 'application/x-www-form-urlencoded; charset=utf-8' });
    expect(json.status).toBe(400);
    expect(await queued()).toBe(0);
    expect(fixes).toEqual([]);
  });

  it('routes a click that opens a modal to its listener on the web role (Reject by a non-approver is told at once)', async () => {
    const body = formBody({ payload: JSON.stringify(buildBlockActions({ userId: VIEWER, actionId: 'medic_reject', value: JSON.stringify({ incidentId: 'inc-test', proposalHash: proposal.contentHash }), channel: sandbox.channelId })) });
    expect((await postSigned(eventsUrl, SECRET, body)).status).toBe(200);
    await until('the web role to answer', () => ephemeralsFor(VIEWER).length === 1);
    expect(ephemeralsFor(VIEWER)[0]?.text).toContain('Only approvers can reject');
    expect(await queued()).toBe(0);
  });

  it('answers a click on the web role, once, when the queue cannot take it', async () => {
    const broken = await startApp({ enqueue: async () => Promise.reject(new Error('stream unavailable')) });
    try {
      const body = approveBody(APPROVER);
      const headers = { 'content-type': FORM_CONTENT_TYPE, ...signSlackRequest(SECRET, body, Date.now() / 1000) };
      expect((await fetch(broken.url, { method: 'POST', headers, body })).status).toBe(200);
      await until('the web role to answer', () => ephemeralsFor(APPROVER).length === 1);
      expect(fixes).toEqual([`inc-test:${proposal.contentHash}`]);
      // A replay of it is still dropped, by the claim Bolt's path took.
      expect((await fetch(broken.url, { method: 'POST', headers, body })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(ephemeralsFor(APPROVER)).toHaveLength(1);
      expect(fixes).toHaveLength(1);
    } finally {
      await broken.stop();
    }
  });
});
