import type { ChatMessage } from './chat.js';
import type { WriteFence } from './write-fence.js';

/** Why an incident's card is not in Slack yet, as `doctor` and the incident record show it. */
export interface DeliveryFailure {
  error: string;
  upstreamCode?: string;
  since: string;
  attempts: number;
}

/** What the card of an incident last showed in Slack: the render's digest and the record it came from. */
export interface SentCard {
  digest: string;
  /** The incident's state and record version the render showed (absent in ledgers written before they were kept). */
  state?: string;
  version?: number;
  /** When it was sent (ms). */
  at?: number;
}

/** A thread reply waiting for its card: delivered after the card is posted, retried until Slack takes it. */
export interface PendingReply {
  key: string;
  message: ChatMessage;
  /** When it was asked for (ms): replies go out in that order. */
  at: number;
}

/** A delivery's hold on one card: the token that renews and frees it, and the fence its writes carry. */
export interface CardLock {
  token: string;
  fence: WriteFence;
}

/** Which write of a delivery a fence check stands before. */
export type CardWrite = 'post' | 'update' | 'reply' | 'ledger';

/** Where the card delivery job keeps its lock, its ledger and its failures (Redis; shared by every worker). */
export interface CardDeliveryState {
  /** The lock when this worker may deliver the incident's card now; undefined while another does. */
  tryLock(incidentId: string, ttlMs: number): Promise<CardLock | undefined>;
  /** Extends the lease while its holder is alive; false when the lease was lost. */
  renew(incidentId: string, token: string, ttlMs: number): Promise<boolean>;
  unlock(incidentId: string, token: string): Promise<void>;
  recordFailure(incidentId: string, failure: DeliveryFailure): Promise<void>;
  clearFailure(incidentId: string): Promise<void>;
  failing(): Promise<(DeliveryFailure & { incidentId: string })[]>;
  /** What the card last showed, so an unchanged render costs no call and a stale card is found. */
  lastSent(incidentId: string): Promise<SentCard | undefined>;
  /** The same for many incidents in one round trip (`doctor`, the sweep). */
  lastSentMany(incidentIds: readonly string[]): Promise<(SentCard | undefined)[]>;
  markSent(incidentId: string, sent: SentCard): Promise<void>;
  /**
   * The card's check before each write of a delivery, in one Redis step: the lock's fence is
   * admitted unless a later holder's larger one was, and then `sent`, when given, goes in the ledger.
   * False when refused: nothing is written but a denied audit record, and Slack must not be called.
   */
  admitWrite(incidentId: string, fence: WriteFence, write: CardWrite, sent?: SentCard): Promise<boolean>;
  /** Keeps a thread reply until it is delivered (a second add of one key changes nothing). */
  addReply(incidentId: string, reply: PendingReply): Promise<void>;
  pendingReplies(incidentId: string): Promise<PendingReply[]>;
  removeReply(incidentId: string, key: string): Promise<void>;
}

/**
 * Asks for the incident's card to show its current state (as of record `version`); the delivery
 * job does the rest. Posts and final states have priority; progress may be dropped under load.
 * One request per version and priority is kept; `occasion` names another that the version does
 * not capture (a new event count, a repair of a card found behind).
 */
export type RequestCard = (incidentId: string, version: number, priority: 'final' | 'progress', occasion?: string) => Promise<void>;

/**
 * Asks for a reply in the incident's card thread, once per key. It is kept in Redis until Slack
 * took it, waits for the card when the card is not posted yet, and never fails its caller's work.
 */
export type RequestReply = (incidentId: string, key: string, message: ChatMessage) => Promise<void>;

/** The one way Medic writes to an incident's card and thread: every write is a durable delivery. */
export interface CardDeliveries {
  requestCard: RequestCard;
  requestReply: RequestReply;
}
