/**
 * The sandbox's channel history lives in real Redis: a restarted sandbox shows the same cards and
 * threads, a card posted before the restart can still be updated and replied to, and the history
 * stays bounded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackChat } from '../../src/adapters/slack/slack-chat.js';
import { createSlackWebClient } from '../../src/adapters/slack/web-client.js';
import { createSlackSandbox, type SlackSandbox } from '../../src/sandbox/create-slack-sandbox.js';
import { createSandboxHistory } from '../../src/sandbox/sandbox-history.js';
import { SandboxState } from '../../src/sandbox/sandbox-state.js';
import { createTestRedis } from '../support/redis.js';

const BOT_TOKEN = 'xoxb-test-history';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start(history: { redis: import('ioredis').Redis; prefix: string }): Promise<SlackSandbox> {
  const sandbox = await createSlackSandbox({ port: 0, signingSecret: 's'.repeat(32), botToken: BOT_TOKEN, medicEventsUrl: 'http://127.0.0.1:9/slack/events', history });
  return sandbox;
}

const chatOn = (sandbox: SlackSandbox) => createSlackChat({ client: createSlackWebClient({ token: BOT_TOKEN, apiUrl: sandbox.apiUrl, retries: 0 }), channel: 'incidents' });
const card = (text: string) => ({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });

describe('the sandbox history', () => {
  it('survives a restart: same cards and threads, and updates of old cards keep working', async () => {
    const { redis, prefix, cleanup } = await createTestRedis();
    cleanups.push(cleanup);
    const first = await start({ redis, prefix });
    const ref = await chatOn(first).postCard('card:inc-1', card('card one'));
    await chatOn(first).replyInThread(ref, 'reply:inc-1', card('a thread reply'));
    await chatOn(first).updateCard(ref, card('card one, updated'));
    await first.close();

    const second = await start({ redis, prefix });
    cleanups.push(() => second.close());
    const page = await (await fetch(`${second.url}sandbox/state?user=U0APPROVER`)).json() as { messages: { ts: string; text: string; threadTs: string | null }[] };
    expect(page.messages.map((m) => m.text)).toEqual(['card one, updated', 'a thread reply']);
    expect(page.messages[1]!.threadTs).toBe(ref.ts);
    // The card Medic recorded before the restart is still there to update and to reply to.
    await chatOn(second).updateCard(ref, card('card one, after the restart'));
    await chatOn(second).replyInThread(ref, 'reply:inc-1:2', card('a reply after the restart'));
    expect(second.state.find(ref.ts)!.text).toBe('card one, after the restart');
    const next = await chatOn(second).postCard('card:inc-2', card('card two'));
    expect(Number(next.ts)).toBeGreaterThan(Number(ref.ts));
  });

  it('keeps only the newest messages within its bound, in Redis and in memory', async () => {
    const { redis, prefix, cleanup } = await createTestRedis();
    cleanups.push(cleanup);
    const history = createSandboxHistory({ redis, prefix, channel: 'C1', limit: 3 });
    const state = new SandboxState({ id: 'C1', name: 'incidents' });
    for (let i = 0; i < 5; i++) {
      state.add({ channel: 'C1', user: 'B', text: `m${i}`, blocks: [] });
      await history.save(state);
    }
    state.add({ channel: 'C1', user: 'B', text: 'only for Bob', blocks: [], ephemeralFor: 'U0BOB' });
    await history.save(state);
    expect((await history.load()).map((m) => m.text)).toEqual(['m2', 'm3', 'm4']);
    expect(await redis.hlen(`${prefix}{sandbox:C1}:messages`)).toBe(3);
    expect(state.messages.filter((m) => !m.ephemeralFor).map((m) => m.text)).toEqual(['m2', 'm3', 'm4']);
  });

  it('loses one damaged row, never the rest of the history', async () => {
    const { redis, prefix, cleanup } = await createTestRedis();
    cleanups.push(cleanup);
    const history = createSandboxHistory({ redis, prefix, channel: 'C1' });
    const state = new SandboxState({ id: 'C1', name: 'incidents' });
    const kept = state.add({ channel: 'C1', user: 'B', text: 'kept', blocks: [] });
    await history.save(state);
    await redis.hset(`${prefix}{sandbox:C1}:messages`, '1.000001', '{not json');
    await redis.zadd(`${prefix}{sandbox:C1}:order`, 1.000001, '1.000001');
    expect((await history.load()).map((m) => m.ts)).toEqual([kept.ts]);
  });
});
