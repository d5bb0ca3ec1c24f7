/**
 * The Slack chat adapter over the real @slack/web-api client against the sandbox's Web API:
 * the Chat contract, the wire format, and every fault an operator or a job must survive.
 */
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackChat } from '../../src/adapters/slack/slack-chat.js';
import { createSlackWebClient } from '../../src/adapters/slack/web-client.js';
import { ErrorCode, MedicError } from '../../src/domain/errors.js';
import { createSlackSandbox, type SlackSandbox } from '../../src/sandbox/create-slack-sandbox.js';
import { describeChatContract } from './chat-contract.js';

const TOKEN = 'xoxb-chat-test-token';
let sandbox: SlackSandbox;

beforeAll(async () => {
  sandbox = await createSlackSandbox({ port: 0, signingSecret: 'unused-here', botToken: TOKEN, medicEventsUrl: 'http://127.0.0.1:9/slack/events' });
});
afterAll(async () => sandbox.close());

const newChat = (channel = 'incidents', retries = 0, token = TOKEN) =>
  createSlackChat({ channel, client: createSlackWebClient({ token, apiUrl: sandbox.apiUrl, retries, minRetryDelayMs: 10, maxRetryDelayMs: 20 }) });
const top = () => sandbox.state.messages.filter((m) => !m.threadTs && !m.ephemeralFor);

describeChatContract('slack (sandbox Web API)', async () => {
  const chat = newChat();
  return {
    chat,
    restarted: () => newChat(),
    cardsWithText: async (text) => top().filter((m) => m.text === text).length,
    replies: async (ts) => sandbox.state.messages.filter((m) => m.threadTs === ts).map((m) => m.text),
    textOf: async (ts) => sandbox.state.find(ts)?.text,
  };
});

describe('Slack chat adapter: wire format', () => {
  it('sends form-encoded calls with a Bearer token, blocks as JSON and the key as message metadata', async () => {
    const ref = await newChat().postCard('wire-key', { text: 'wire', blocks: [{ type: 'divider' }] });
    const post = sandbox.state.calls.filter((c) => c.method === 'chat.postMessage').at(-1)!;
    expect(post.args).toMatchObject({ channel: sandbox.channelId, text: 'wire' });
    expect(JSON.parse(String(post.args.blocks))).toEqual([{ type: 'divider' }]);
    expect(JSON.parse(String(post.args.metadata))).toEqual({ event_type: 'medic_card', event_payload: { key: 'wire-key' } });
    expect(sandbox.state.find(ref.ts)?.metadata?.event_payload).toEqual({ key: 'wire-key' });
    const lookups = sandbox.state.calls.filter((c) => c.method === 'conversations.history');
    expect(lookups.at(-1)?.args.include_all_metadata).toBe('true');
  });

  it('resolves a channel name to its id once', async () => {
    const chat = newChat('#incidents');
    expect(await chat.channelId()).toBe(sandbox.channelId);
  });

  it('posts ephemerals escaped, to one user only', async () => {
    await newChat().postEphemeral('incidents', 'U0VIEWER', 'no <!channel> & <https://x|y>');
    const m = sandbox.state.messages.at(-1)!;
    expect(m.ephemeralFor).toBe('U0VIEWER');
    expect(m.text).toBe('no &lt;!channel&gt; &amp; &lt;https://x|y&gt;');
  });
});

describe('Slack chat adapter: faults', () => {
  const message = { text: 'fault', blocks: [] };

  it('429: honours Retry-After and retries within the budget', async () => {
    sandbox.injectFault({ method: 'chat.postMessage', status: 429, retryAfterSeconds: 1 });
    const client = createSlackWebClient({ token: TOKEN, apiUrl: sandbox.apiUrl, retries: 2, minRetryDelayMs: 10, maxRetryDelayMs: 20 });
    const waits: number[] = [];
    client.on(webApi.WebClientEvent.RATE_LIMITED, (seconds: number) => waits.push(seconds));
    const ref = await createSlackChat({ channel: 'incidents', client }).postCard('rate-limited', message);
    expect(waits).toEqual([1]);
    expect(top().filter((m) => m.ts === ref.ts)).toHaveLength(1);
  });

  it('5xx: retried with a bounded policy, then posted once', async () => {
    sandbox.injectFault({ method: 'chat.postMessage', status: 503, times: 2 });
    const ref = await newChat('incidents', 3).postCard('after-5xx', message);
    expect(top().filter((m) => m.metadata?.event_payload.key === 'after-5xx').map((m) => m.ts)).toEqual([ref.ts]);
  });

  it('5xx beyond the budget: throws a transient coded error (the job retries), nothing posted', async () => {
    sandbox.injectFault({ method: 'chat.postMessage', status: 500, times: 3 });
    const error = await newChat('incidents', 1).postCard('gives-up', message).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MedicError);
    expect(error).toMatchObject({ code: ErrorCode.UpstreamUnavailable, transient: true });
    expect(top().some((m) => m.metadata?.event_payload.key === 'gives-up')).toBe(false);
    sandbox.state.faults.length = 0;
    await newChat().postCard('gives-up', message);
    expect(top().filter((m) => m.metadata?.event_payload.key === 'gives-up')).toHaveLength(1);
  });

  it.each([
    ['channel_not_found', () => newChat('C0UNKNOWN').postCard('x', message), /MEDIC_SLACK_CHANNEL/],
    ['invalid_auth', () => newChat('incidents', 0, 'xoxb-wrong').postCard('x', message), /SLACK_BOT_TOKEN/],
  ])('%s: a clear, non-transient operator error', async (_name, run, hint) => {
    const error = await run().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.UpstreamRejected, transient: false });
    expect((error as Error).message).toMatch(hint);
    expect((error as Error).message).not.toContain('xoxb-wrong');
  });

  it('not_in_channel: joins the channel when the scopes allow, then posts once', async () => {
    sandbox.injectFault({ method: 'chat.postMessage', error: 'not_in_channel' });
    const ref = await newChat().postCard('joined-in', message);
    expect(sandbox.state.calls.filter((c) => c.method === 'conversations.join')).not.toHaveLength(0);
    expect(top().filter((m) => m.metadata?.event_payload.key === 'joined-in').map((m) => m.ts)).toEqual([ref.ts]);
  });

  it('not_in_channel without channels:join: tells the operator to invite the bot', async () => {
    sandbox.injectFault({ method: 'chat.postMessage', error: 'not_in_channel' });
    sandbox.injectFault({ method: 'conversations.join', error: 'missing_scope' });
    const error = await newChat().postCard('not-in', message).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.UpstreamRejected });
    expect((error as Error).message).toMatch(/invite the bot/);
  });

  it('a post whose answer was lost is found by key on retry, not doubled', async () => {
    // Slack stored the message, but the worker died before recording the ref: a new instance retries.
    await newChat().postCard('lost-answer', message);
    await newChat().postCard('lost-answer', message);
    expect(top().filter((m) => m.metadata?.event_payload.key === 'lost-answer')).toHaveLength(1);
  });

  it('check() reads the channel history, so a bot that passes auth.test but cannot see the channel fails', async () => {
    const ok = await newChat().check();
    expect(ok).toMatchObject({ ok: true });
    expect(sandbox.state.calls.at(-1)?.method).toBe('conversations.history');
    sandbox.injectFault({ method: 'conversations.history', error: 'not_in_channel' });
    const check = await newChat().check();
    expect(check.ok).toBe(false);
    expect(check.detail).toMatch(/invite the bot/);
  });

  it('check() reports a bad token without leaking it', async () => {
    const check = await newChat('incidents', 0, 'xoxb-secret-value-123').check();
    expect(check.ok).toBe(false);
    expect(check.detail).toMatch(/SLACK_BOT_TOKEN/);
    expect(JSON.stringify(check)).not.toContain('xoxb-secret');
  });
});
