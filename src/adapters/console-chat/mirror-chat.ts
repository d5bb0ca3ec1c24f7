import type { Writable } from 'node:stream';
import type { Chat, ChatMessage } from '../../ports/chat.js';
import { renderBlocks } from './render-blocks.js';

/**
 * Mirrors what a chat adapter posts to a terminal, so `npm start` on the sandbox shows the cards
 * in its output too. An update is printed only when its rendering changed.
 */
export function mirrorToConsole(chat: Chat, out: Writable): Chat {
  const last = new Map<string, string>();
  const print = (title: string, key: string, message: ChatMessage) => {
    const text = renderBlocks(message);
    if (last.get(key) === text) return;
    last.set(key, text);
    out.write(`\n┌─ ${title}\n${text.split('\n').map((l) => `│ ${l}`).join('\n')}\n└─\n`);
  };
  return {
    check: () => chat.check(),
    async postCard(key, message) {
      const ref = await chat.postCard(key, message);
      print('new card', `${ref.channel}/${ref.ts}`, message);
      return ref;
    },
    async updateCard(ref, message) {
      await chat.updateCard(ref, message);
      print('card updated', `${ref.channel}/${ref.ts}`, message);
    },
    async replyInThread(ref, key, message) {
      await chat.replyInThread(ref, key, message);
      print('thread reply', key, message);
    },
    postEphemeral: (channel, userId, text) => chat.postEphemeral(channel, userId, text),
  };
}
