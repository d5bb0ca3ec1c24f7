import type { CardDeliveries } from '../../src/ports/card-delivery.js';
import type { ChatMessage } from '../../src/ports/chat.js';

/** The card and thread requests as the delivery port receives them; a reply key is kept once, like the ledger. */
export function recordingDeliveries() {
  const replies = new Map<string, ChatMessage>();
  const cards: number[] = [];
  const deliveries: CardDeliveries = {
    requestCard: async (_id, version) => void cards.push(version),
    requestReply: async (_id, key, message) => void (replies.has(key) || replies.set(key, message)),
  };
  return { deliveries, replies, cards };
}
