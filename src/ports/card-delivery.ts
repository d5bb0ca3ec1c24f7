/** Why an incident's card is not in Slack yet, as `doctor` and the incident record show it. */
export interface DeliveryFailure {
  error: string;
  upstreamCode?: string;
  since: string;
  attempts: number;
}

/** Where the card delivery job keeps its lock and its failures (Redis; shared by every worker). */
export interface CardDeliveryState {
  /** A token when this worker may deliver the incident's card now; undefined while another does. */
  tryLock(incidentId: string, ttlMs: number): Promise<string | undefined>;
  /** Extends the lease while its holder is alive; false when the lease was lost. */
  renew(incidentId: string, token: string, ttlMs: number): Promise<boolean>;
  unlock(incidentId: string, token: string): Promise<void>;
  recordFailure(incidentId: string, failure: DeliveryFailure): Promise<void>;
  clearFailure(incidentId: string): Promise<void>;
  failing(): Promise<(DeliveryFailure & { incidentId: string })[]>;
  /** The digest of the last card content sent for the incident, so an unchanged render costs no call. */
  lastSent(incidentId: string): Promise<string | undefined>;
  markSent(incidentId: string, digest: string): Promise<void>;
}

/**
 * Asks for the incident's card to show its current state (as of record `version`); the delivery
 * job does the rest. Posts and final states have priority; progress may be dropped under load.
 */
export type RequestCard = (incidentId: string, version: number, priority: 'final' | 'progress') => Promise<void>;
