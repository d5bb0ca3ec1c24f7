/**
 * Cards posted to the service catalog's channels: the Slack adapter resolves each named channel
 * through conversations.list once and keys idempotency per channel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackChat } from '../../src/adapters/slack/slack-chat.js';
import { createSlackWebClient } from '../../src/adapters/slack/web-client.js';
import { createSlackSandbox, type SlackSandbox } from '../../src/sandbox/create-slack-sandbox.js';

const TOKEN = 'xoxb-chat-channels-token';
let sandbox: SlackSandbox;

beforeAll(async () => {
  sandbox = await createSlackSandbox({ port: 0, signingSecret: 'unused-here', botToken: TOKEN, medicEventsUrl: 'http://127.0.0.1:9/slack/events', otherChannels: ['payments-oncall'] });
});
afterAll(async () => sandbox.close());

const newChat = () => createSlackChat({ channel: 'incidents', client: createSlackWebClient({ token: TOKEN, apiUrl: sandbox.apiUrl, retries: 0 }) });

describe('Slack chat adapter: the catalog channels', () => {
  it('posts a card to the named channel, and a retried post with the same key finds it there', async () => {
    const chat = newChat();
    const payments = sandbox.state.channels.find((c) => c.name === 'payments-oncall')!;
    const ref = await chat.postCard('card:pay-1', { text: 'payments card', blocks: [] }, 'payments-oncall');
    expect(ref.channel).toBe(payments.id);
    // A fresh process (no cache) finds the first post by its key in that channel's history.
    const again = await newChat().postCard('card:pay-1', { text: 'payments card', blocks: [] }, '#payments-oncall');
    expect(again).toEqual(ref);
    expect(sandbox.state.messages.filter((m) => m.text === 'payments card').map((m) => m.channel)).toEqual([payments.id]);
    const plain = await chat.postCard('card:default-1', { text: 'default card', blocks: [] });
    expect(plain.channel).toBe(sandbox.channelId);
    await chat.replyInThread(ref, 'reply:pay-1', { text: 'in the payments thread', blocks: [] });
    expect(sandbox.state.messages.find((m) => m.text === 'in the payments thread')).toMatchObject({ channel: payments.id, threadTs: ref.ts });
  });

  it('says which channel is missing', async () => {
    await expect(newChat().postCard('card:x', { text: 'x', blocks: [] }, 'nowhere-oncall')).rejects.toThrow(/no channel named "nowhere-oncall"/);
  });
});
