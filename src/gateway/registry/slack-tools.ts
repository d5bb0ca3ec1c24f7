import { z } from 'zod';
import type { Chat } from '../../ports/chat.js';
import { explicitName } from '../arguments/identifiers.js';
import { defineTool, missing, type AnyToolSpec } from './tool-spec.js';

const Message = z.strictObject({
  text: z.string().max(40_000),
  blocks: z.array(z.record(z.string(), z.unknown())).max(50),
  version: z.number().int().nonnegative().optional(),
  progress: z.boolean().optional(),
});
/** A thread reply's picture (the verification chart): a PNG, bounded like Slack's own upload limits would never need. */
const Image = z.strictObject({
  pngBase64: z.string().min(1).max(8_000_000).regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64'),
  filename: z.string().regex(/^[\w.-]{1,100}\.png$/, 'must be a plain .png file name'),
  title: z.string().min(1).max(200),
  altText: z.string().min(1).max(1_000),
});
const Reply = Message.extend({ image: Image.optional() });
const Ref = z.strictObject({ channel: explicitName(), ts: explicitName() });

/**
 * Talking to humans in Medic's own channel. Classed READ_ONLY on purpose: a card changes nothing
 * in the operator's systems, every post is idempotent by key, and requiring an approval to ask
 * for an approval would deadlock. They are never cached: a stale "posted" would hide a lost card.
 */
export function createSlackTools(chat: Chat | undefined): AnyToolSpec[] {
  // The adapter bounds every call (SLACK_TIMEOUT_MS, no client retries, short pacing waits); this
  // deadline sits above its worst case so the gateway never abandons a call still running.
  const base = { effect: 'READ_ONLY', permission: 'read', reversible: true, upstream: 'chat', available: chat !== undefined, timeoutMs: 90_000, selfPaced: true } as const;
  const slack = () => chat ?? missing('Chat');
  return [
    defineTool({
      ...base,
      name: 'slack.post-card',
      summary: 'Post the incident card (once per key)',
      schema: z.strictObject({ key: explicitName(), message: Message, channel: explicitName().optional() }),
      identifiers: [['key'], ['channel']],
      handler: (args) => slack().postCard(args.key, args.message, args.channel),
    }),
    defineTool({
      ...base,
      name: 'slack.update-card',
      summary: 'Update the incident card in place',
      schema: z.strictObject({ ref: Ref, message: Message }),
      identifiers: [['ref', 'channel'], ['ref', 'ts']],
      handler: (args) => slack().updateCard(args.ref, args.message),
    }),
    defineTool({
      ...base,
      name: 'slack.reply',
      summary: "Reply in the card's thread (once per key)",
      schema: z.strictObject({ ref: Ref, key: explicitName(), message: Reply }),
      identifiers: [['ref', 'channel'], ['ref', 'ts'], ['key']],
      handler: (args) => slack().replyInThread(args.ref, args.key, args.message),
    }),
    defineTool({
      ...base,
      name: 'slack.ephemeral',
      summary: 'Tell one person something only they see',
      schema: z.strictObject({ channel: explicitName(), userId: explicitName(), text: z.string().min(1).max(3_000) }),
      identifiers: [['channel'], ['userId']],
      handler: (args) => slack().postEphemeral(args.channel, args.userId, args.text),
    }),
  ];
}
