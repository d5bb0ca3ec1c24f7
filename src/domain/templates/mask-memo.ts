import { maskMessage, maskShape, type MaskLimits } from './mask-message.js';

/** Masked keys (`maskMessage(message).join(' ')`) of messages, remembered. */
export interface MaskMemo {
  keyOf(message: string): string;
}

/**
 * Logs repeat messages word for word, or but for their numbers (heartbeats, retries, the same
 * failure from many requests). Masking is a pure function of a message's shape (`maskShape`), so
 * a message of a remembered shape is never masked again: the key is looked up, by the message
 * itself first (a repeat word for word costs one look-up), then by its shape. Only the first
 * message of each shape is remembered as itself, or lines that each carry numbers of their own
 * would crowd out what repeats. Each map forgets everything once it holds `maxRemembered`
 * entries; messages longer than `maxLength` seldom repeat and are masked every time.
 */
export function createMaskMemo(limits: MaskLimits, maxRemembered = 1 << 16, maxLength = 512): MaskMemo {
  const messages = new Map<string, string>();
  const shapes = new Map<string, string>();
  return {
    keyOf(message) {
      if (message.length > maxLength) return maskMessage(message, limits).join(' ');
      const seen = messages.get(message);
      if (seen !== undefined) return seen;
      const shape = maskShape(message);
      let key = shapes.get(shape);
      if (key !== undefined) return key;
      key = maskMessage(message, limits).join(' ');
      if (shapes.size >= maxRemembered) shapes.clear();
      shapes.set(ownCopy(shape), key);
      // A message without digits other than 0 is its own shape, remembered as that already.
      if (shape !== message) {
        if (messages.size >= maxRemembered) messages.clear();
        messages.set(ownCopy(message), key);
      }
      return key;
    },
  };
}

/**
 * The same text in a string of its own. A message cut from a long text (a block of lines) may be
 * a slice that keeps the whole text in memory; V8 copies a joined string when it is sliced.
 */
function ownCopy(text: string): string {
  return ` ${text}`.slice(1);
}
