import { describe, expect, it } from 'vitest';
import type { Chat } from '../../src/ports/chat.js';
import { createSlackTools } from '../../src/gateway/registry/slack-tools.js';

const chat = { postCard: async () => ({ channel: 'C1', ts: '1.1' }), updateCard: async () => undefined, replyInThread: async () => undefined, postEphemeral: async () => undefined, check: async () => ({ name: 'chat', adapter: 'test', ok: true, detail: '' }) } as Chat;
const reply = createSlackTools(chat).find((t) => t.name === 'slack.reply')!;
const args = (image: Record<string, unknown>) => ({ ref: { channel: 'C1', ts: '1.1' }, key: 'verify:inc-1:r0:verified', message: { text: 'Resolved — verified', blocks: [], image } });
const png = { pngBase64: Buffer.from('\x89PNG\r\n\x1a\n').toString('base64'), filename: 'verification.png', title: 'Events before and after the deploy', altText: 'A bar chart' };

describe("the thread reply's picture at the gateway", () => {
  it('takes a PNG with a plain file name, and refuses anything else with the reason', () => {
    expect(reply.schema.safeParse(args(png)).success).toBe(true);
    const refused = (image: Record<string, unknown>) => reply.schema.safeParse(args(image)).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(refused({ ...png, pngBase64: 'not base64!' })).toEqual(['message.image.pngBase64: must be base64']);
    expect(refused({ ...png, filename: '../../etc/passwd.png' })).toEqual(['message.image.filename: must be a plain .png file name']);
    expect(refused({ ...png, filename: 'chart.svg' })).toEqual(['message.image.filename: must be a plain .png file name']);
    expect(refused({ ...png, extra: 1 })?.[0]).toMatch(/message\.image/);
    // A card post or update carries no picture.
    const post = createSlackTools(chat).find((t) => t.name === 'slack.post-card')!;
    expect(post.schema.safeParse({ key: 'card:inc-1', message: { text: 'x', blocks: [], image: png } }).success).toBe(false);
  });
});
