import type { RedisClient } from '../redis/connect.js';
import type { Writable } from 'node:stream';
import type { CardRef } from '../../domain/incident.js';
import type { Chat, ChatMessage } from '../../ports/chat.js';
import { renderBlocks } from './render-blocks.js';

/**
 * The console chat: prints cards and their buttons to a stream. Post keys are recorded in Redis
 * (HSETNX), so a retried step never prints a second card, across processes and restarts; the
 * record doubles as the transcript `show` and the tests read.
 */
export function createConsoleChat(options: { redis: RedisClient; prefix: string; out: Writable; channel: string }): Chat {
  const { redis, out } = options;
  const posts = `${options.prefix}console:posts`;
  const transcript = `${options.prefix}console:transcript`;
  // A picture cannot be printed: the console says what it shows (its alt text) under the reply.
  const pictureLine = (message: ChatMessage) => (message.image ? `\n🖼 ${message.image.title}: ${message.image.altText}` : '');
  const print = (title: string, message: ChatMessage) => {
    out.write(`\n┌─ ${title}\n${`${renderBlocks(message)}${pictureLine(message)}`.split('\n').map((l) => `│ ${l}`).join('\n')}\n└─\n`);
  };
  // The transcript keeps what the picture showed, never its bytes.
  const log = (kind: string, key: string, message: ChatMessage) =>
    redis.rpush(transcript, JSON.stringify({ kind, key, text: message.text, blocks: message.blocks, ...(message.image ? { image: { filename: message.image.filename, title: message.image.title, altText: message.image.altText } } : {}) }));

  return {
    async postCard(key, message, channel) {
      const ref: CardRef = { channel: channel ?? options.channel, ts: key };
      if ((await redis.hsetnx(posts, key, JSON.stringify(ref))) === 0) {
        return JSON.parse((await redis.hget(posts, key)) ?? JSON.stringify(ref)) as CardRef;
      }
      await log('post', key, message);
      print(`#${ref.channel} · new card`, message);
      return ref;
    },
    async updateCard(ref, message) {
      await log('update', ref.ts, message);
      print(`#${ref.channel} · card updated`, message);
    },
    async replyInThread(ref, key, message) {
      if ((await redis.hsetnx(posts, key, JSON.stringify(ref))) === 0) return;
      await log('reply', key, message);
      print(`#${ref.channel} · thread reply`, message);
    },
    async postEphemeral(channel, userId, text) {
      out.write(`\n(only visible to ${userId} in #${channel}) ${text}\n`);
    },
    async check() {
      return { name: 'chat', adapter: 'console (embedded)', ok: true, detail: 'cards are printed to standard output' };
    },
  };
}
