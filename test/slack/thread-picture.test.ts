/**
 * A picture in a card's thread: the real @slack/web-api WebClient uploads it to the sandbox's Web
 * API in Slack's three steps (files.getUploadURLExternal, the bytes to the upload_url,
 * files.completeUploadExternal), and the Slack chat adapter posts it once per key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisPostLedger } from '../../src/adapters/redis/post-ledger.js';
import { keyedFileName } from '../../src/adapters/slack/message-keys.js';
import { createSlackChat } from '../../src/adapters/slack/slack-chat.js';
import { createSlackWebClient } from '../../src/adapters/slack/web-client.js';
import type { ChatImage } from '../../src/ports/chat.js';
import { createSlackSandbox, type SlackSandbox } from '../../src/sandbox/create-slack-sandbox.js';
import { MAX_FILE_BYTES, SandboxFiles, uploadedBytes } from '../../src/sandbox/sandbox-files.js';
import { pageState } from '../../src/sandbox/page-routes.js';
import { SANDBOX_USERS } from '../../src/sandbox/sandbox-users.js';
import { createTestRedis } from '../support/redis.js';

const TOKEN = 'xoxb-picture-test-token';
// A real PNG (1×1, red): the sandbox serves files by their signature, not their name.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
const image: ChatImage = { pngBase64: PNG.toString('base64'), filename: 'verification.png', title: 'Events before and after the fix', altText: 'Events per min: 120 before the deploy at 14:10 UTC, 0 after it.' };

let sandbox: SlackSandbox;
let base: string;
beforeAll(async () => {
  sandbox = await createSlackSandbox({ port: 0, signingSecret: 'unused-here', botToken: TOKEN, medicEventsUrl: 'http://127.0.0.1:9/slack/events' });
  base = sandbox.url.replace(/\/$/, '');
});
afterAll(async () => sandbox.close());

const client = () => createSlackWebClient({ token: TOKEN, apiUrl: sandbox.apiUrl });
const repliesTo = (ts: string) => sandbox.state.messages.filter((m) => m.threadTs === ts);
async function newCard(text: string): Promise<string> {
  const posted = await client().chat.postMessage({ channel: sandbox.channelId, text, blocks: [] });
  return posted.ts ?? '';
}

describe('the sandbox Web API takes an upload the way Slack does', () => {
  it('filesUploadV2: an upload URL on its own loopback origin, the bytes, then one share in the thread with the comment', async () => {
    const card = await newCard('card for the upload');
    const result = await client().filesUploadV2({ channel_id: sandbox.channelId, thread_ts: card, initial_comment: '✅ *Resolved — verified*', file: PNG, filename: 'chart.png', title: 'The chart', alt_text: 'a chart' });
    const methods = sandbox.state.calls.map((c) => c.method).slice(-2);
    expect(methods).toEqual(['files.getUploadURLExternal', 'files.completeUploadExternal']);
    const requested = sandbox.state.calls.at(-2)!.args;
    expect(requested).toMatchObject({ filename: 'chart.png', length: String(PNG.length), alt_text: 'a chart' });

    const [reply, ...more] = repliesTo(card);
    expect(more).toEqual([]);
    expect(reply).toMatchObject({ text: '✅ *Resolved — verified*', blocks: [], files: [{ name: 'chart.png', title: 'The chart', mimetype: 'image/png', altText: 'a chart' }] });
    const completed = (result.files as { files?: { id?: string; url_private?: string; shares?: { public?: Record<string, { ts: string; thread_ts?: string }[]> } }[] }[])[0]?.files?.[0];
    expect(completed?.shares?.public?.[sandbox.channelId]?.[0]).toMatchObject({ ts: reply?.ts, thread_ts: card });
    expect(completed?.url_private?.startsWith(`${base}/sandbox/files/`)).toBe(true);

    // The thread read back carries the file, as Slack's does.
    const thread = await client().conversations.replies({ channel: sandbox.channelId, ts: card });
    expect(thread.messages?.[1]?.files?.[0]?.name).toBe('chart.png');

    // The sandbox serves the bytes from its own guarded route.
    const served = await fetch(completed?.url_private ?? '');
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    const crossSite = await fetch(completed?.url_private ?? '', { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
  });

  it('refuses what Slack refuses: no length, a wrong upload secret, an unknown or unfinished file, a missing thread', async () => {
    const api = client();
    await expect(api.files.getUploadURLExternal({ filename: 'x.png', length: 0 })).rejects.toMatchObject({ data: { error: 'invalid_arguments' } });
    await expect(api.files.getUploadURLExternal({ filename: 'x.png', length: MAX_FILE_BYTES + 1 })).rejects.toMatchObject({ data: { error: 'file_too_large' } });
    const reserved = await api.files.getUploadURLExternal({ filename: 'x.png', length: PNG.length });
    const uploadUrl = reserved.upload_url ?? '';
    expect(uploadUrl.startsWith(`${base}/upload/v1/`)).toBe(true);
    const forged = uploadUrl.replace(/[a-f0-9]{32}$/, '0'.repeat(32));
    expect((await fetch(forged, { method: 'POST', body: PNG })).status).toBe(404);
    await expect(api.files.completeUploadExternal({ files: [{ id: reserved.file_id ?? '' }], channel_id: sandbox.channelId })).rejects.toMatchObject({ data: { error: 'file_not_found' } });
    // Raw bytes are an upload too (Slack takes either).
    expect(await (await fetch(uploadUrl, { method: 'POST', body: PNG })).text()).toBe(`OK - ${PNG.length}`);
    await expect(api.files.completeUploadExternal({ files: [{ id: reserved.file_id ?? '' }], channel_id: sandbox.channelId, thread_ts: '1.000001' })).rejects.toMatchObject({ data: { error: 'thread_not_found' } });
    await expect(api.files.completeUploadExternal({ files: [{ id: 'FNOSUCHFILE' }], channel_id: sandbox.channelId })).rejects.toMatchObject({ data: { error: 'file_not_found' } });
  });

  it('shows the file to the page: its title, alt text and the sandbox route of its bytes', async () => {
    const card = await newCard('card for the page');
    await client().filesUploadV2({ channel_id: sandbox.channelId, thread_ts: card, initial_comment: 'chart below', file: PNG, filename: 'page.png', title: 'Page chart', alt_text: 'what it shows' });
    const state = pageState({ state: sandbox.state, baseUrl: () => base, signingSecret: 'x', medicEventsUrl: () => '', users: SANDBOX_USERS, command: '/medic' }, SANDBOX_USERS[0]!.id);
    const reply = (state.messages as { threadTs: string | null; files?: unknown[] }[]).find((m) => m.threadTs === card);
    expect(reply?.files).toEqual([expect.objectContaining({ name: 'page.png', title: 'Page chart', altText: 'what it shows', available: true, url: expect.stringMatching(/^\/sandbox\/files\/F[A-Z0-9]+\/page\.png$/) })]);
  });
});

describe('the Slack chat adapter posts a picture reply once per key', () => {
  it('uploads the picture with the text as its comment, and a retry (or a restarted process) finds it by its key', async () => {
    const card = { channel: sandbox.channelId, ts: await newCard('card for the adapter') };
    const message = { text: '✅ *Resolved — verified* — no events in 30 min', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'ignored' } }], image };
    const chat = createSlackChat({ channel: 'incidents', client: client() });
    await chat.replyInThread(card, 'verified:inc-1', message);
    await chat.replyInThread(card, 'verified:inc-1', message);
    // Another process, no cache: it looks the thread up and finds the file by the key in its name.
    await createSlackChat({ channel: 'incidents', client: client() }).replyInThread(card, 'verified:inc-1', message);
    const replies = repliesTo(card.ts);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ text: message.text, files: [{ name: keyedFileName('verified:inc-1', 'verification.png'), title: image.title, altText: image.altText }] });
    expect(sandbox.state.calls.filter((c) => c.method === 'chat.postMessage' && c.args.thread_ts === card.ts)).toEqual([]);
    // A reply without a picture still goes through chat.postMessage.
    await chat.replyInThread(card, 'merged:inc-1', { text: 'Merged', blocks: [] });
    expect(repliesTo(card.ts).map((m) => m.text)).toEqual([message.text, 'Merged']);
  });

  it('with the post ledger in Redis: one upload per key across processes', async () => {
    const { redis, prefix, cleanup } = await createTestRedis();
    try {
      const card = { channel: sandbox.channelId, ts: await newCard('card for the ledger') };
      const message = { text: 'Still failing', blocks: [], image };
      const chatWith = () => createSlackChat({ channel: 'incidents', client: client(), posts: createRedisPostLedger(redis, prefix) });
      await chatWith().replyInThread(card, 'still-failing:inc-2', message);
      await chatWith().replyInThread(card, 'still-failing:inc-2', message);
      expect(repliesTo(card.ts)).toHaveLength(1);
      expect(sandbox.state.calls.filter((c) => c.method === 'files.completeUploadExternal' && c.args.thread_ts === card.ts)).toHaveLength(1);
    } finally {
      await cleanup();
    }
  });
});

describe('the sandbox keeps uploads bounded', () => {
  it('forgets the oldest files past the count and past the bytes', () => {
    const files = new SandboxFiles(3, 1_000);
    const ids = Array.from({ length: 5 }, (_, i) => {
      const file = files.reserve({ name: `f${i}.png`, length: 300 });
      files.store(file.id, file.uploadToken, Buffer.alloc(300, i));
      return file.id;
    });
    expect(files.size).toBeLessThanOrEqual(3);
    expect(files.bytes()).toBeLessThanOrEqual(1_000);
    expect(files.get(ids[0]!)).toBeUndefined();
    expect(files.get(ids[4]!)?.bytes?.length).toBe(300);
  });

  it('reads the file part of a multipart body, and takes any other body as the bytes', () => {
    const body = Buffer.concat([Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="token"\r\n\r\nabc\r\n--XyZ\r\nContent-Disposition: form-data; name="body"; filename="Untitled"\r\nContent-Type: application/octet-stream\r\n\r\n'), PNG, Buffer.from('\r\n--XyZ--\r\n')]);
    expect(uploadedBytes(body, 'multipart/form-data; boundary=XyZ')).toEqual(PNG);
    expect(uploadedBytes(PNG, 'application/octet-stream')).toEqual(PNG);
    expect(uploadedBytes(Buffer.from('--XyZ\r\nbroken'), 'multipart/form-data; boundary=XyZ')).toBeUndefined();
  });
});
