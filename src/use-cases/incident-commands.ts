import type { Incident, IncidentStats } from '../domain/incident.js';

/** An incident with its storm counters, as every surface (Slack, CLI, HTTP) shows it. */
export interface IncidentView {
  incident: Incident;
  stats?: IncidentStats;
}

export type CommandResult = { ok: true; view: IncidentView; message: string } | { ok: false; code: string; message: string };

/** A verified identity: `userId` comes from a verified Slack request or the configured operator. */
export interface Caller {
  userId: string;
  name?: string;
  via: 'slack' | 'cli';
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
  status(incidentId: string): Promise<IncidentView | undefined>;
  list(options?: { openOnly?: boolean; limit?: number }): Promise<IncidentView[]>;
  feedback(input: { incidentId: string; caller: Caller; target: 'rca' | 'fix'; vote: 'up' | 'down' }): Promise<CommandResult>;
}
