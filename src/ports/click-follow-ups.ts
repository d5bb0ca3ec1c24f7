/**
 * A card click the web role verified and acked, handed to a worker to answer. Only what the
 * signed request proved travels: who clicked (Slack's verified user id), which button, its value
 * (parsed again by the worker, never trusted for authority) and where the clicker sits.
 */
export interface ClickFollowUp {
  actionId: string;
  value: string;
  user: { id: string; name?: string };
  /** Where the clicked message lives: the ephemeral answer goes there. */
  channel?: string;
  /** When the web role acked it (ms since the epoch). */
  at: number;
  /**
   * The delivery's replay keys (its identity and its signature), claimed by the worker before it
   * answers: a retry or a replay of a click already answered is dropped there. Absent when the web
   * role claimed them itself.
   */
  replayKeys?: string[];
  /**
   * The queued delivery's own id (the stream entry), set by the worker that reads it: a worker
   * that takes over a dead worker's pending click claims its replay keys again under the same id.
   */
  deliveryId?: string;
}

/** Where the web role leaves clicks it acked; a worker answers them (use-case, then an ephemeral). */
export interface ClickFollowUps {
  enqueue(click: ClickFollowUp): Promise<void>;
}
