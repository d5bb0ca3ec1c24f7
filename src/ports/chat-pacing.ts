import type { CardRef } from '../domain/incident.js';

/** Posts and final states wait their turn; progress may be dropped, a newer render supersedes it. */
export type CallPriority = 'final' | 'progress';

/**
 * Spaces the calls to one Slack channel across every worker (Slack allows about one message per
 * second per channel) and holds them all back after a 429 for its Retry-After.
 */
export interface CallPacer {
  /**
   * Resolves when this call may go out. Throws a transient coded error carrying `retryAfterMs`
   * when the wait would be long (the job retries then), or at once for progress when the channel
   * is busy: posts and final states keep the slots.
   */
  take(channel: string, priority: CallPriority): Promise<void>;
  /** Slack answered 429: no call to this channel before `retryAfterMs` from now. */
  hold(channel: string, retryAfterMs: number): Promise<void>;
}

/** The newest rendered version each card has been sent, so an older render is never sent after it. */
export interface CardVersions {
  /** True when `version` is at least the newest admitted for the card (and records it); false for a stale render. */
  admit(ref: CardRef, version: number): Promise<boolean>;
  /**
   * An update of the card timed out: Slack may still apply it for a while. No newer update goes out
   * until `ms` have passed, so a late arrival can never land on top of a newer state.
   */
  unsettle(ref: CardRef, ms: number): Promise<void>;
  /** How long the card must still wait after a timed-out update (0 when settled). */
  unsettledMs(ref: CardRef): Promise<number>;
}

/** What the post ledger knows of one keyed post: its message, or that an attempt went out at `pendingSince` with no answer yet. */
export type PostEntry = { ts: string } | { pendingSince: number };

/**
 * Posts once per key, shared by every worker, written before the post: a retry finds the message
 * it posted without asking Slack, and looks Slack up only when an earlier attempt's outcome is
 * unknown (a timeout, a crash between the post and its record).
 */
export interface PostLedger {
  get(key: string): Promise<PostEntry | undefined>;
  /**
   * Marks an attempt about to go out at `nowMs`. 'busy' while another attempt's mark is younger
   * than `settleMs`; the message's ts when one was recorded meanwhile; 'ok' otherwise.
   */
  begin(key: string, nowMs: number, settleMs: number): Promise<'ok' | 'busy' | { ts: string }>;
  done(key: string, ts: string): Promise<void>;
  /** The attempt surely did not post (Slack refused it, or it never left): forget its mark. */
  clear(key: string): Promise<void>;
}
