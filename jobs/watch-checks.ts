import { z } from 'zod';
import type { IncidentStore } from '../src/ports/incident-store.js';
import { PIPELINE_ACTOR } from '../src/domain/audit.js';
import { inInvocationScope } from '../src/gateway/invocation-scope.js';
import type { Logger } from '../src/observability/logger.js';
import type { CardDeliveries } from '../src/ports/card-delivery.js';
import type { PullRequests } from '../src/ports/code.js';
import { presentThreadReply } from '../src/presenters/thread-reply.js';
import type { JobDefinition } from '../src/queue/job-definition.js';

export interface WatchChecksDeps {
  store: IncidentStore;
  deliveries: CardDeliveries;
  pullRequests: PullRequests;
  logger: Logger;
  clock: () => Date;
  /** Schedules the next look while the checks are still running. */
  enqueue(incidentId: string, attempt: number, delayMs: number): Promise<void>;
  intervalMs: number;
  maxLooks: number;
}

const WatchPayload = z.object({ incidentId: z.string().min(1), attempt: z.number().int().nonnegative() });

/**
 * Watches a fix PR's check runs: while they run, it looks again later (a new job per look, so
 * nothing holds a worker); when they pass or fail, the incident records it and the thread says so.
 */
export function createWatchChecksJob(deps: WatchChecksDeps): JobDefinition<z.infer<typeof WatchPayload>> {
  return {
    queue: 'watch-checks',
    schema: WatchPayload,
    attempts: 3,
    backoffMs: 5_000,
    concurrency: 2,
    perform: ({ incidentId, attempt }) => inInvocationScope(incidentId, () => look(incidentId, attempt, deps)),
  };
}

async function look(incidentId: string, attempt: number, deps: WatchChecksDeps): Promise<void> {
  const incident = await deps.store.get(incidentId);
  const fix = incident?.fix;
  if (!incident || !fix?.pullRequest || !deps.pullRequests.checks || (fix.checks && fix.checks !== 'pending')) return;
  const state = await deps.pullRequests.checks(fix.branch);
  if (state === 'pending' && attempt + 1 < deps.maxLooks) {
    await deps.enqueue(incidentId, attempt + 1, deps.intervalMs);
    return;
  }
  const at = deps.clock().toISOString();
  const updated = await deps.store.update(incidentId, (current) =>
    current.fix && current.fix.checks !== state
      ? { incident: { ...current, fix: { ...current.fix, checks: state }, updatedAt: at }, audit: [{ at, action: 'fix.checks', outcome: 'done', actor: PIPELINE_ACTOR, details: { state, looks: attempt + 1 } }] }
      : undefined,
  );
  const view = { incident: updated, stats: await deps.store.stats(incidentId) };
  await deps.deliveries.requestReply(incidentId, `checks:${incidentId}:${state}`, presentThreadReply(view, 'checks'));
  await deps.deliveries.requestCard(incidentId, updated.version, 'final');
}
