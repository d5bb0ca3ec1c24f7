import { buildTimeline, resolutionCount } from '../domain/timeline.js';
import type { AuditLog } from '../ports/audit.js';
import type { CardDeliveries } from '../ports/card-delivery.js';
import type { IncidentStore } from '../ports/incident-store.js';
import { presentTimelineMessage } from '../presenters/timeline-message.js';

export interface PostTimelineDeps {
  store: Pick<IncidentStore, 'get'>;
  audit: Pick<AuditLog, 'list'>;
  deliveries: Pick<CardDeliveries, 'requestReply'>;
}

/**
 * Posts the incident's timeline in its card thread when it is resolved — once per resolution: the
 * reply's key counts the resolution records in the audit (`timeline:<id>:<n>`), so a retried call
 * posts nothing more, and a regression resolved again posts the next one. Called after the
 * resolution's audit record is written (the verify job's verdict, the sweep's quiet close).
 * The reply is a durable delivery: it waits for the card and never fails its caller's work.
 */
export async function postTimeline(deps: PostTimelineDeps, incidentId: string): Promise<void> {
  const incident = await deps.store.get(incidentId);
  if (!incident) return;
  const trail = await deps.audit.list({ incidentId });
  const entries = buildTimeline(trail);
  await deps.deliveries.requestReply(incident.id, `timeline:${incident.id}:${resolutionCount(trail)}`, presentTimelineMessage(incident, entries));
}
