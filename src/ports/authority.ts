/** What a verified identity may do, re-resolved on the server for every decision. */
export interface Permissions {
  /** May approve or reject fixes and run MUTATING actions. */
  approver: boolean;
  /** May confirm DESTRUCTIVE actions (step-up). */
  elevated: boolean;
  /**
   * May read any incident anywhere (`/medic status`, `/medic list` in a DM or another channel):
   * approvers and MEDIC_READERS. Everyone else reads only in the incident's own channel.
   */
  reader: boolean;
}

/**
 * Resolves permissions from a verified user id (Slack user id, or the configured CLI operator):
 * configured id lists or Slack user groups. Never from a payload, a button value or model output.
 */
export interface Authority {
  /** `scope.incidentId`: the incident the decision is about — its service's approvers count too. */
  resolve(userId: string, scope?: AuthorityScope): Promise<Permissions>;
}

/** What a decision is about; the service is looked up from the incident, never taken from the caller. */
export interface AuthorityScope {
  incidentId?: string;
  /** A service named by Medic's own records (an overflow family's), for a decision about no incident yet. */
  service?: string;
}
