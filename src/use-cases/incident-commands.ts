import type { AuditEvent } from '../domain/audit.js';
import type { EventRate } from '../domain/event-rate.js';
import type { Incident, IncidentStats } from '../domain/incident.js';

/** An incident with its storm counters, as every surface (Slack, CLI, HTTP) shows it. */
export interface IncidentView {
  incident: Incident;
  stats?: IncidentStats;
  /** The family's events per minute (`store.eventRate`): the card draws it as a sparkline, the verdict's chart too. */
  rate?: EventRate;
  /** Where the sparkline ends (ms); without it, at the later of the last event and the record's last write. */
  nowMs?: number;
}

export type CommandResult = { ok: true; view: IncidentView; message: string } | { ok: false; code: string; message: string };

/** A verified identity: `userId` comes from a verified Slack request or the configured operator. */
export interface Caller {
  userId: string;
  name?: string;
  via: 'slack' | 'cli';
}

/**
 * Who asks to read, and where. `channel` is the Slack channel the verified request came from; in an
 * incident's own channel its card is already visible to everyone there, elsewhere only readers
 * (MEDIC_READERS and approvers) see incidents. The CLI operator reads everything: the command line
 * already runs with Medic's own access to Redis.
 */
export interface Viewer {
  caller: Caller;
  channel?: string;
}

/**
 * The use-cases every surface calls. Authorization happens inside, from the caller's verified id;
 * slow work is enqueued, so each returns quickly.
 */
export interface IncidentCommands {
  approve(input: { incidentId: string; caller: Caller; proposalHash: string }): Promise<CommandResult>;
  reject(input: { incidentId: string; caller: Caller; proposalHash: string; reason: string }): Promise<CommandResult>;
  /**
   * Re-runs the analysis and the fix proposal (`/medic fix <id> [reason]`), giving the analyst the
   * reason (or the rejection's) and the previous proposal. An incident whose fix branch was pushed
   * answers ERR_CONFIRM_REQUIRED unless `confirmed`; its branch stays on record either way.
   */
  rerun(input: { incidentId: string; caller: Caller; reason?: string; confirmed?: boolean }): Promise<CommandResult>;
  /** Undefined when there is no such incident or the viewer may not read it there (audited). */
  status(incidentId: string, viewer: Viewer): Promise<IncidentView | undefined>;
  /** The incidents the viewer may read where they ask. */
  list(viewer: Viewer, options?: { openOnly?: boolean; limit?: number }): Promise<IncidentView[]>;
  /** The fixed incidents the viewer may read whose merged fix is still being watched (merge, deploy, quiet window). */
  awaitingVerification(viewer: Viewer): Promise<IncidentView[]>;
  /** The incident and its audit records (for `/medic timeline`), read under the same rule as `status`. */
  timeline(incidentId: string, viewer: Viewer): Promise<{ view: IncidentView; trail: AuditEvent[] } | undefined>;
  /** Counts only from approvers: a vote labels the documents Medic learns from. */
  feedback(input: { incidentId: string; caller: Caller; target: 'rca' | 'fix'; vote: 'up' | 'down' }): Promise<CommandResult>;
}
