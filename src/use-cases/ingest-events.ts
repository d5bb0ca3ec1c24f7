import type { ErrorEvent } from '../domain/event.js';
import { fingerprintEvent } from '../domain/fingerprint.js';
import { createIncident } from '../domain/incident.js';
import { maskMessage } from '../domain/templates/mask-message.js';
import type { IncidentStore, IngestStatus } from '../adapters/redis/incident-store.js';

export interface IngestDeps {
  store: IncidentStore;
  enqueueAnalysis(incidentId: string, round: number): Promise<void>;
  clock: () => Date;
  onIngested?: (status: IngestStatus) => void;
}

const BATCH = 1_000;

/** The message template an incident family is keyed on: the first line, variable parts masked. */
export function templateOf(message: string): string {
  const firstLine = message.split('\n', 1)[0] ?? '';
  return maskMessage(firstLine).join(' ') || '(empty message)';
}

/**
 * Turns polled events into incidents: each event is recorded once (by its persistent id), joins
 * the open incident of its family or opens one, and every new incident gets its analysis job.
 * Events are durable in Redis before this returns, so the caller may then advance its checkpoint.
 */
export async function ingestEvents(events: ErrorEvent[], deps: IngestDeps): Promise<Record<IngestStatus, number>> {
  const counts: Record<IngestStatus, number> = { created: 0, absorbed: 0, duplicate: 0 };
  const at = deps.clock();
  for (let i = 0; i < events.length; i += BATCH) {
    const inputs = events.slice(i, i + BATCH).map((event) => {
      const fingerprint = fingerprintEvent(event, templateOf(event.message));
      const id = `inc-${fingerprint.key.slice(0, 12)}-${Math.floor(Date.parse(event.time) / 1000).toString(36)}`;
      return { event, fingerprint: fingerprint.key, candidate: createIncident({ id, fingerprint: fingerprint.key, title: fingerprint.title, event, at: at.toISOString() }) };
    });
    const results = await deps.store.ingest(inputs, at.getTime());
    for (const result of results) {
      counts[result.status]++;
      deps.onIngested?.(result.status);
    }
  }
  await enqueuePending(deps);
  return counts;
}

/** Enqueues every incident still waiting for its first analysis job — after a crash, too. */
export async function enqueuePending(deps: IngestDeps): Promise<number> {
  const pending = await deps.store.pendingAnalysis();
  for (const id of pending) {
    await deps.enqueueAnalysis(id, 0);
    await deps.store.clearPending(id);
  }
  return pending.length;
}
