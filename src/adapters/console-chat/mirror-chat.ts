import type { Writable } from 'node:stream';
import type { Chat, ChatMessage } from '../../ports/chat.js';
import { renderBlocks, summarizeCard } from './render-blocks.js';

/**
 * Mirrors what a chat adapter posts to a terminal, so `npm start` on the sandbox shows what
 * happens: one line per card event (`posted: <status>`, `updated: <status>`, `thread reply`), and the whole
 * card only when asked (`npm start -- --verbose`, or `npm run medic -- show <id>` at any time).
 * An update whose line would repeat the last one (a count refresh) prints nothing.
 */
export function mirrorToConsole(chat: Chat, out: Writable, options: { verbose?: boolean } = {}): Chat {
  const last = new Map<string, string>();
  // A reply rarely names its incident: the line takes it from the card the reply is threaded under.
  const cardIds = new Map<string, string>();
  const print = (event: 'posted' | 'updated' | 'thread reply', key: string, message: ChatMessage, cardKey = key) => {
    const card = summarizeCard(message);
    if (event !== 'thread reply' && card.id) cardIds.set(cardKey, card.id);
    const line = event === 'thread reply'
      ? `medic · thread reply  ${card.id ?? cardIds.get(cardKey) ?? ''}  ${card.headline}`
      : `medic · card ${event === 'posted' ? `posted${card.status ? `: ${card.status}` : ''}` : `updated: ${card.status ?? 'changed'}`}  ${card.id ?? ''}  ${card.headline}`;
    const full = options.verbose ? `${renderBlocks(message).split('\n').map((l) => `│ ${l}`).join('\n')}\n` : '';
    // Without --verbose an update is news only when the status moved; with it, when the card changed.
    const seen = options.verbose ? full : card.status ?? card.headline;
    if (event === 'updated' && last.get(key) === seen) return;
    last.set(key, seen);
    // A picture posted with a reply is named by what it shows.
    const picture = message.image ? `  🖼 ${message.image.altText}\n` : '';
    out.write(`${line.replace(/ {2,}/g, '  ').trimEnd()}\n${picture}${full}`);
  };
  return {
    check: () => chat.check(),
    async postCard(key, message, channel) {
      const ref = await chat.postCard(key, message, channel);
      print('posted', `${ref.channel}/${ref.ts}`, message);
      return ref;
    },
    async updateCard(ref, message) {
      await chat.updateCard(ref, message);
      print('updated', `${ref.channel}/${ref.ts}`, message);
    },
    async replyInThread(ref, key, message) {
      await chat.replyInThread(ref, key, message);
      print('thread reply', key, message, `${ref.channel}/${ref.ts}`);
    },
    postEphemeral: (channel, userId, text) => chat.postEphemeral(channel, userId, text),
  };
}
