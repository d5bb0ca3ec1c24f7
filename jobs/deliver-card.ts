import { createHash } from 'node:crypto';
import { z } from 'zod';
import { PIPELINE_ACTOR } from '../src/domain/audit.js';
import { cardRetryDelayMs, type CardRetryPolicy } from '../src/domain/card-retry.js';
import { ErrorCode, MedicError, asMedicError, isMedicError } from '../src/domain/errors.js';
import type { CardRef, Incident } from '../src/domain/incident.js';
import { isOverflowFingerprint } from '../src/domain/storm-policy.js';
import type { Logger } from '../src/observability/logger.js';
import type { Metrics } from '../src/observability/metrics.js';
import { observeTimeTo } from '../src/observability/time-to.js';
import type { CardDeliveryState, CardLock, CardWrite, SentCard } from '../src/ports/card-delivery.js';
import type { Chat, ChatMessage } from '../src/ports/chat.js';
import type { IncidentStore } from '../src/ports/incident-store.js';
import type { WriteFence } from '../src/ports/write-fence.js';
import { diffFitsCard } from '../src/presenters/diff-pages.js';
import { presentChannelCard } from '../src/presenters/channel-card.js';
import { presentThreadDiff } from '../src/presenters/thread-diff.js';
import type { JobDefinition } from '../src/queue/job-definition.js';

export interface DeliverCardDeps {
  store: IncidentStore;
  chat: Chat;
  state: CardDeliveryState;
  clock: () => Date;
  logger: Logger;
  metrics: Metrics;
  retry: CardRetryPolicy;
  /** Tries before a final delivery is given up (with `retry.maxMs` between them: days). */
  attempts: number;
}

const DeliverCardPayload = z.object({ incidentId: z.string().min(1), priority: z.enum(['final', 'progress']) });
type Priority = z.infer<typeof DeliverCardPayload>['priority'];
// A short lease renewed while the worker lives: a killed worker's lock frees within seconds.
const LEASE_MS = 5_000;
const RENEW_MS = 1_500;

/**
 * Puts an incident's card in Slack in its current state: posts it (once, by key) or updates it,
 * then posts the thread replies waiting for it. It is the one path every card write and thread
 * reply takes (analysis, decision, fix, checks, sweep, refresh), and it records in a ledger what
 * each card shows, so no write can leave the channel behind the incident unnoticed.
 * The analysis never waits on this job, so a rate-limited or failing Slack never fails an analysis;
 * the job retries a final delivery with Slack's Retry-After or an exponential backoff up to hours,
 * records each failure on the incident, and ends in exactly one card once Slack answers. It always
 * renders the record as it is when it runs, never the state at enqueue time, under a per-incident
 * lock, so deliveries of one card never overtake each other. The lock is a lease with a fencing
 * number: a worker that paused past its lease and resumed after another took the card is refused,
 * at each Slack write and each incident write, by a check made in Redis in the step that writes.
 */
export function createDeliverCardJob(deps: DeliverCardDeps): JobDefinition<z.infer<typeof DeliverCardPayload>> {
  return {
    queue: 'deliver-card',
    schema: DeliverCardPayload,
    attempts: deps.attempts,
    backoffMs: deps.retry.minMs,
    retryDelayMs: (attemptsMade, error) => cardRetryDelayMs(attemptsMade, error, deps.retry),
    concurrency: 8,
    async perform({ incidentId, priority }, job) {
      await deliverCard(incidentId, priority, deps, job.attemptsMade + 1);
    },
  };
}

const digest = (message: ChatMessage) => createHash('sha256').update(JSON.stringify([message.text, message.blocks])).digest('hex');

/** How long a final delivery waits for another delivery of its card (one Slack call) to finish, before it retries later. */
const FINAL_WAIT_MS = 2_000;
const WAIT_STEP_MS = 20;

/** The card's lock; a final delivery waits a moment for it, a progress one never does. */
async function lockCard(incidentId: string, requested: Priority, deps: DeliverCardDeps): Promise<CardLock | undefined> {
  const deadline = Date.now() + (requested === 'final' ? FINAL_WAIT_MS : 0);
  for (;;) {
    const lock = await deps.state.tryLock(incidentId, LEASE_MS);
    if (lock || Date.now() >= deadline) return lock;
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
}

export async function deliverCard(incidentId: string, requested: Priority, deps: DeliverCardDeps, attempt = 1): Promise<void> {
  const lock = await lockCard(incidentId, requested, deps);
  if (!lock) {
    if (requested === 'progress') return void deps.metrics.cardDeliveries.inc({ outcome: 'progress_dropped' });
    throw new MedicError(ErrorCode.Conflict, `Another worker is delivering the card of ${incidentId}.`, { transient: true, retryAfterMs: 1_000 });
  }
  const { token, fence } = lock;
  const renewal = setInterval(() => void deps.state.renew(incidentId, token, LEASE_MS).catch(() => undefined), RENEW_MS);
  let incident: Incident | undefined;
  try {
    incident = await deps.store.get(incidentId);
    if (!incident) return;
    // Without a card, this is the post: it has priority whatever asked for it.
    const priority: Priority = incident.card && incident.state === 'analyzing' ? requested : 'final';
    if (!incident.card && requested === 'progress') return void deps.metrics.cardDeliveries.inc({ outcome: 'progress_dropped' });
    await deliver(incident, priority, fence, deps);
    if (incident.cardDelivery) await clearFailure(incidentId, fence, deps);
    else await deps.state.clearFailure(incidentId);
  } catch (error) {
    // The later holder delivers the card as the record stands; this one's work is done, and refused.
    if (isMedicError(error) && error.code === ErrorCode.StaleLease) return void deps.metrics.cardDeliveries.inc({ outcome: 'refused_stale' });
    if (requested === 'progress') return void deps.metrics.cardDeliveries.inc({ outcome: 'progress_dropped' });
    throw await recordFailure(incidentId, error, attempt, fence, deps);
  } finally {
    clearInterval(renewal);
    await deps.state.unlock(incidentId, token);
  }
}

/** The card's fence check before a write; refused, the write is not made (the refusal is audited by the check). */
async function admit(incidentId: string, fence: WriteFence, write: CardWrite, deps: DeliverCardDeps, sent?: SentCard): Promise<void> {
  if (await deps.state.admitWrite(incidentId, fence, write, sent)) return;
  throw new MedicError(ErrorCode.StaleLease, `Refused the card ${write} for ${incidentId}: this worker's lease (fence ${fence.fence}) was taken over and a later holder has written; nothing was sent to Slack.`);
}

async function deliver(incident: Incident, priority: Priority, fence: WriteFence, deps: DeliverCardDeps): Promise<void> {
  const stats = await deps.store.stats(incident.id);
  const overflowFamilies = isOverflowFingerprint(incident.fingerprint) ? await deps.store.overflowFamilies(incident.fingerprint) : undefined;
  // The rate is read with the count, so the card's sparkline moves whenever its events count does.
  // No clock: the line ends at the record's last event or write, so a render depends on the record
  // and its counts only (the ledger's digest stays put between them; a quiet tail shows once a
  // write, the verification's or the sweep's, moves the record on).
  const rate = overflowFamilies ? undefined : await deps.store.eventRate(incident.id);
  const render = (current: Incident, options?: { interactive: boolean }) =>
    presentChannelCard({ incident: current, stats, ...(rate ? { rate } : {}), ...(overflowFamilies ? { overflowFamilies } : {}) }, options);
  const sent = (current: Incident, message: ChatMessage): SentCard => ({ digest: digest(message), state: current.state, version: current.version, at: Date.now() });
  const longDiff = incident.state === 'awaiting_approval' && incident.proposal !== undefined && !diffFitsCard(incident.proposal);
  let card = incident.card;
  if (!card) {
    // A card offering Approve over a diff too long for it waits until the diff is in its thread.
    const first = render(incident, { interactive: !longDiff });
    // Recorded before the post: a post found later by its key shows this render. An entry already
    // there is an earlier try's, whose post may be the one found, so it is kept (at worst one
    // update more).
    await admit(incident.id, fence, 'post', deps, (await deps.state.lastSent(incident.id)) ? undefined : sent(incident, first));
    card = await deps.chat.postCard(`card:${incident.id}`, first, incident.route?.channel);
    const posted = card;
    const at = deps.clock().toISOString();
    const action = overflowFamilies ? 'incident.overflow-card' : 'incident.card-posted';
    let firstPost = false;
    incident = await deps.store.update(incident.id, (current) => {
      firstPost = !current.card;
      return current.card ? undefined : { incident: { ...current, card: posted, updatedAt: at }, audit: [{ at, action, outcome: 'done', actor: PIPELINE_ACTOR, details: { title: current.title, channel: posted.channel } }] };
    }, undefined, { fence });
    deps.metrics.cardDeliveries.inc({ outcome: 'posted' });
    if (firstPost) observeTimeTo(deps.metrics, incident, 'card', at);
  }
  if (longDiff && incident.proposal) {
    const parts = presentThreadDiff(incident);
    await admit(incident.id, fence, 'reply', deps);
    for (const [i, part] of parts.entries()) await deps.chat.replyInThread(card, `diff:${incident.id}:${incident.proposal.contentHash}:${i}`, part);
  }
  const message: ChatMessage = { ...render(incident), ...(priority === 'progress' ? { progress: true } : {}) };
  const now = sent(incident, message);
  const last = await deps.state.lastSent(incident.id);
  if (last?.digest === now.digest) {
    // The card shows it already; the ledger learns the record it stands for (a render can outlive a state).
    if (last.state !== now.state || last.version !== now.version) await admit(incident.id, fence, 'ledger', deps, now);
    deps.metrics.cardDeliveries.inc({ outcome: 'unchanged' });
  } else {
    await admit(incident.id, fence, 'update', deps);
    await deps.chat.updateCard(card, message);
    await admit(incident.id, fence, 'ledger', deps, now);
    deps.metrics.cardDeliveries.inc({ outcome: priority === 'progress' ? 'progress' : 'updated' });
  }
  // Replies are posts: a progress delivery leaves them to their own (final, retried) delivery.
  if (priority === 'final') await deliverReplies(incident.id, card, fence, deps);
}

/** The card's waiting thread replies, oldest first; each is removed once Slack took it. */
async function deliverReplies(incidentId: string, card: CardRef, fence: WriteFence, deps: DeliverCardDeps): Promise<void> {
  for (const reply of await deps.state.pendingReplies(incidentId)) {
    await admit(incidentId, fence, 'reply', deps);
    await deps.chat.replyInThread(card, reply.key, reply.message);
    await deps.state.removeReply(incidentId, reply.key);
    deps.metrics.cardDeliveries.inc({ outcome: 'replied' });
  }
}

/** The incident says why its card is missing or behind; `doctor` lists it. Always retried. */
async function recordFailure(incidentId: string, thrown: unknown, attempt: number, fence: WriteFence, deps: DeliverCardDeps): Promise<MedicError> {
  const error = asMedicError(thrown);
  const reason = error.upstreamCode ?? error.code;
  deps.metrics.cardDeliveries.inc({ outcome: 'failed' });
  deps.metrics.cardDeliveryFailures.inc({ reason });
  if (error.code !== ErrorCode.Conflict) {
    const at = deps.clock().toISOString();
    const write = async () => {
      const updated = await deps.store.update(incidentId, (current) => {
        const since = current.cardDelivery?.since ?? at;
        const cardDelivery = { error: error.message, ...(error.upstreamCode ? { upstreamCode: error.upstreamCode } : {}), since, attempts: attempt };
        const audit = current.cardDelivery?.upstreamCode === error.upstreamCode ? [] : [{ at, action: 'incident.card-delivery', outcome: 'failed' as const, actor: PIPELINE_ACTOR, reason: error.message }];
        return { incident: { ...current, cardDelivery, updatedAt: current.updatedAt }, audit };
      }, undefined, { fence });
      await deps.state.recordFailure(incidentId, { ...(updated.cardDelivery ?? { error: error.message, since: at, attempts: attempt }) });
    };
    await write().catch((e: unknown) => deps.logger.warn({ incidentId, err: e }, 'could not record the card delivery failure'));
  }
  // Operator errors (channel_not_found, invalid_auth…) are retried too: the card is posted once they are fixed.
  return new MedicError(error.code, error.message, { transient: true, ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }), ...(error.upstreamCode ? { upstreamCode: error.upstreamCode } : {}) });
}

async function clearFailure(incidentId: string, fence: WriteFence, deps: DeliverCardDeps): Promise<void> {
  const at = deps.clock().toISOString();
  await deps.store.update(incidentId, (current) =>
    current.cardDelivery
      ? { incident: { ...current, cardDelivery: undefined, updatedAt: current.updatedAt }, audit: [{ at, action: 'incident.card-delivery', outcome: 'done', actor: PIPELINE_ACTOR, details: { after: current.cardDelivery.attempts } }] }
      : undefined,
    undefined,
    { fence },
  );
  await deps.state.clearFailure(incidentId);
}
