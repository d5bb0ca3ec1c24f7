import type { Incident } from '../domain/incident.js';
import type { Metrics, Milestone } from './metrics.js';

/** A first event stamped more than this before Medic opened the incident is an old log read late (a replay, a backfill). */
export const LATE_READ_MS = 24 * 3_600_000;

/**
 * When the incident's clock starts, in ms: the first event's log time, which is when the failure
 * began for the people it hit. When that stamp cannot be trusted as such — unparseable, after
 * Medic opened the incident (a skewed clock), or more than a day before it (old logs replayed or
 * backfilled, whose "time to card" would measure the replay, not the response) — the incident's
 * creation time.
 */
export function milestoneStartMs(incident: Incident): number {
  const created = Date.parse(incident.createdAt);
  const first = Date.parse(incident.firstEvent.time);
  if (!Number.isFinite(first) || first > created || created - first > LATE_READ_MS) return created;
  return first;
}

/** Seconds from the incident's start (see milestoneStartMs) to `at`; never negative. */
export function secondsToMilestone(incident: Incident, at: Date | string): number {
  const atMs = typeof at === 'string' ? Date.parse(at) : at.getTime();
  return Math.max(0, (atMs - milestoneStartMs(incident)) / 1_000);
}

/** The service an incident is counted under: the catalog's name for it, else the log's. */
export function milestoneService(incident: Incident): string {
  return incident.route?.service ?? incident.service;
}

/** Observes `medic_time_to_seconds` for one milestone of one incident. */
export function observeTimeTo(metrics: Pick<Metrics, 'timeTo'>, incident: Incident, milestone: Milestone, at: Date | string): void {
  const seconds = secondsToMilestone(incident, at);
  if (Number.isFinite(seconds)) metrics.timeTo.observe({ service: milestoneService(incident), milestone }, seconds);
}
