import type { CardRef } from '../domain/incident.js';
import type { Checkable } from './service-check.js';

/** A Block Kit message: fallback text plus blocks, built by a pure presenter. */
export interface ChatMessage {
  text: string;
  blocks: Record<string, unknown>[];
  /** The incident record version the card was rendered from: a card is never updated to an older one. */
  version?: number;
  /** A progress render: under load it may be dropped, since a newer render supersedes it. */
  progress?: boolean;
  /** A picture posted with the message (a thread reply only): uploaded as a file, the text its comment. */
  image?: ChatImage;
}

/** A PNG carried by a message, base64 so the delivery ledger can keep it in Redis until Slack took it. */
export interface ChatImage {
  pngBase64: string;
  /** The file's name in Slack (`verification.png`). */
  filename: string;
  title: string;
  /** What the picture shows, for screen readers and the fallback text. */
  altText: string;
}

/** Where on-call engineers meet Medic (Slack, the sandbox, or the console). */
export interface Chat extends Checkable {
  /**
   * Posts a card once per key: a retried step returns the first post's ref. `channel`: the
   * incident's on-call channel from the service catalog (default: the configured channel).
   */
  postCard(key: string, message: ChatMessage, channel?: string): Promise<CardRef>;
  updateCard(ref: CardRef, message: ChatMessage): Promise<void>;
  /** Replies in the card's thread once per key. */
  replyInThread(ref: CardRef, key: string, message: ChatMessage): Promise<void>;
  postEphemeral(channel: string, userId: string, text: string): Promise<void>;
}
