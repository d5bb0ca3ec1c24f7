import { incidentDisplayTitle } from '../domain/display-title.js';
import type { Incident } from '../domain/incident.js';

/**
 * The title every surface shows: the one worked out from the stored samples when the analysis
 * began, else the first event's values. The family template itself is shown in View details.
 */
export function presentIncidentTitle(incident: Pick<Incident, 'title' | 'family' | 'firstEvent' | 'displayTitle'>): string {
  return incident.displayTitle ?? incidentDisplayTitle(incident);
}
