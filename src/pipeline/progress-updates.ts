import type { Incident } from '../domain/incident.js';
import type { PipelineDeps } from './pipeline-deps.js';

/** Steps that finish within this of each other share one card update. */
const QUIET_MS = 250;
/** A run of quick steps still shows on the card at least this often. */
const MAX_WAIT_MS = 1_000;

export interface ProgressUpdates {
  /**
   * Shows this state on the card, unless a newer one comes within the quiet time. `post`: the card
   * is not posted yet; the request that posts it waits the quiet time at most, never the longest wait.
   */
  schedule(incident: Incident, options?: { post?: boolean }): void;
  /**
   * Drops a pending update and waits for one under way: what the caller writes next lands last.
   * A pending post is sent now unless `drop` (the caller is about to ask for the final card).
   */
  settle(options?: { drop?: boolean }): Promise<void>;
}

/**
 * Progress on the card, debounced: with a model that answers at once the nine steps take well
 * under the quiet time, and the card is written twice (posted, then final) instead of eleven
 * times; a slow step (a model call) still finds the card showing every step done before it.
 * The debounced write is a request to the card delivery job (one queued job, one render, one
 * Slack call): the post after intake goes within the quiet time, and an analysis that ends
 * sooner asks only for its final card, which posts it.
 */
export function createProgressUpdates(deps: PipelineDeps, options: { quietMs?: number; maxWaitMs?: number } = {}): ProgressUpdates {
  const quietMs = options.quietMs ?? QUIET_MS;
  const maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS;
  let timer: NodeJS.Timeout | undefined;
  let firstAt: number | undefined;
  let postAt: number | undefined;
  let latest: Incident | undefined;
  let running: Promise<void> = Promise.resolve();

  const fire = () => {
    timer = undefined;
    firstAt = undefined;
    const incident = latest;
    const post = postAt !== undefined;
    latest = undefined;
    postAt = undefined;
    if (incident) running = running.then(() => request(incident, post ? 'final' : 'progress', deps));
  };

  return {
    schedule(incident, { post = false } = {}) {
      latest = incident;
      const now = Date.now();
      firstAt ??= now;
      if (post) postAt ??= now;
      if (timer) clearTimeout(timer);
      const deadline = postAt !== undefined ? postAt + quietMs : firstAt + maxWaitMs;
      timer = setTimeout(fire, Math.max(0, Math.min(quietMs, deadline - now)));
      timer.unref();
    },
    async settle({ drop = false } = {}) {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (postAt !== undefined && !drop) fire();
      firstAt = undefined;
      postAt = undefined;
      latest = undefined;
      await running;
    },
  };
}

/**
 * A request to the card delivery job; a lost one is superseded by the next, and the final
 * request, which the analysis always makes and which posts a card not yet posted, follows.
 */
async function request(incident: Incident, priority: 'final' | 'progress', deps: PipelineDeps): Promise<void> {
  try {
    await deps.requestCard(incident.id, incident.version, priority);
  } catch (error) {
    deps.logger.warn({ incidentId: incident.id, err: error }, 'card request failed');
  }
}
