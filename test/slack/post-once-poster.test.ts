/**
 * Post-once lookups count only Medic's own messages: another app (or a user's tool) that posts a
 * message carrying Medic's metadata key must not stand in for Medic's card.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackChat } from '../../src/adapters/slack/slack-chat.js';
import { keyMetadata } from '../../src/adapters/slack/message-keys.js';
import { createSlackWebClient } from '../../src/adapters/slack/web-client.js';
import { createSlackSandbox, type SlackSandbox } from '../../src/sandbox/create-slack-sandbox.js';

const TOKEN = 'xoxb-post-once-poster-token';
let sandbox: SlackSandbox;

beforeAll(async () => {
  sandbox = await createSlackSandbox({ port: 0, signingSecret: 'unused-here', botToken: TOKEN, medicEventsUrl: 'http://127.0.0.1:9/slack/events' });
});
afterAll(async () => sandbox.close());

const newChat = () => createSlackChat({ channel: 'incidents', client: createSlackWebClient({ token: TOKEN, apiUrl: sandbox.apiUrl, retries: 0 }) });

describe('post once, by Medic only', () => {
  it("posts its own card although another app's message carries the same key", async () => {
    const forged = sandbox.state.add({ channel: sandbox.channelId, user: 'U0OTHERAPP', botId: 'B0OTHERAPP', text: 'Approve here', blocks: [], metadata: keyMetadata('card:inc-forged') });
    const byUser = sandbox.state.add({ channel: sandbox.channelId, user: 'U0HUMAN', text: 'also me', blocks: [], metadata: keyMetadata('card:inc-forged') });
    const ref = await newChat().postCard('card:inc-forged', { text: 'the real card', blocks: [] });
    expect([forged.ts, byUser.ts]).not.toContain(ref.ts);
    expect(sandbox.state.find(ref.ts)?.text).toBe('the real card');
    // Its own earlier post is still found: a retry posts nothing new.
    expect((await newChat().postCard('card:inc-forged', { text: 'the real card', blocks: [] })).ts).toBe(ref.ts);
    expect(sandbox.state.messages.filter((m) => m.text === 'the real card')).toHaveLength(1);
  });
});
