import type { Incident } from '../domain/incident.js';
import { presentIncidentCard } from '../presenters/incident-card.js';
import type { PipelineDeps } from './pipeline-deps.js';

/** Steps that finish within this of each other share one card update. */
const QUIET_MS = 250;
/** A run of quick steps still shows on the card at least this often. */
const MAX_WAIT_MS = 1_000;

export interface ProgressUpdates {
  /** Shows this state on the card, unless a newer one comes within the quiet time. */
  schedule(incident: Incident): void;
  /** Drops a pending update and waits for one under way: what the caller writes next lands last. */
  settle(): Promise<void>;
}

/**
 * Progress on the card, debounced: with a model that answers at once the nine steps take well
 * under the quiet time, and the card is written twice (posted, then final) instead of eleven
 * times; a slow step (a model call) still finds the card showing every step done before it.
 * With a card delivery job the debounced write is a progress request to that job (one queued
 * job, one render, one Slack call), so a storm's analyses queue two deliveries each, not ten.
 */
export function createProgressUpdates(deps: PipelineDeps, options: { quietMs?: number; maxWaitMs?: number } = {}): ProgressUpdates {
  const quietMs = options.quietMs ?? QUIET_MS;
  const maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS;
  let timer: NodeJS.Timeout | undefined;
  let firstAt: number | undefined;
  let latest: Incident | undefined;
  let running: Promise<void> = Promise.resolve();

  const fire = () => {
    timer = undefined;
    firstAt = undefined;
    const incident = latest;
    latest = undefined;
    if (incident) running = running.then(() => (deps.requestCard ? requestProgress(incident, deps) : showProgress(incident, deps)));
  };

  return {
    schedule(incident) {
      latest = incident;
      const now = Date.now();
      firstAt ??= now;
      if (timer) clearTimeout(timer);
      timer = setTimeout(fire, Math.max(0, Math.min(quietMs, firstAt + maxWaitMs - now)));
      timer.unref();
    },
    async settle() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      firstAt = undefined;
      latest = undefined;
      await running;
    },
  };
}

/** A lost progress request is superseded by the next one, and the final request always follows. */
async function requestProgress(incident: Incident, deps: PipelineDeps): Promise<void> {
  try {
    await deps.requestCard?.(incident.id, incident.version, 'progress');
  } catch (error) {
    deps.logger.warn({ incidentId: incident.id, err: error }, 'progress request failed');
  }
}

/** Progress on the card is a courtesy: a failed update never fails the analysis. */
export async function showProgress(incident: Incident, deps: PipelineDeps): Promise<void> {
  if (!incident.card) return;
  try {
    const stats = await deps.store.stats(incident.id);
    await deps.chat.updateCard(incident.card, presentIncidentCard({ incident, stats }));
  } catch (error) {
    deps.logger.warn({ incidentId: incident.id, err: error }, 'progress update failed');
  }
}
