import type { DeliveryFailure } from '../ports/card-delivery.js';
import type { ServiceCheck } from '../ports/service-check.js';
import type { StaleCard } from '../use-cases/stale-cards.js';

/** What one cell's card deliveries stand at: the failing ones, the queue's counts and the cards behind their incident. */
export interface CardDeliveryReading {
  failing: (DeliveryFailure & { incidentId: string })[];
  queued: Record<string, number>;
  stale: StaleCard[];
}

/** Several cells' readings as one. */
export function combineCardReadings(readings: CardDeliveryReading[]): CardDeliveryReading {
  const queued: Record<string, number> = {};
  for (const reading of readings) for (const [state, n] of Object.entries(reading.queued)) queued[state] = (queued[state] ?? 0) + n;
  return { failing: readings.flatMap((r) => r.failing), queued, stale: readings.flatMap((r) => r.stale) };
}

const describeStale = (s: StaleCard) => (s.posted ? `${s.incidentId} shows ${s.shows ?? 'an unrecorded state'}, is ${s.state}` : `${s.incidentId} (${s.state}) has no card`);

/**
 * `doctor`'s line for cards: how many wait for delivery, which open cards are behind their
 * incident (their last delivered render shows another state; the sweep delivers them again), and,
 * for those Slack refuses, why and what to fix (the failure's message carries the operator's next
 * step, e.g. "invite the bot").
 */
export function describeCardDelivery({ failing, queued, stale }: CardDeliveryReading): ServiceCheck {
  const pending = Object.values(queued).reduce((sum, n) => sum + n, 0);
  const adapter = 'deliver-card job';
  const behind = stale.length === 0 ? '' : `${stale.length} card(s) behind their incident, delivered again by the sweep: ${stale.slice(0, 3).map(describeStale).join('; ')}${stale.length > 3 ? '; …' : ''}`;
  if (failing.length === 0) {
    if (behind) return { name: 'card delivery', adapter, ok: false, detail: behind };
    return { name: 'card delivery', adapter, ok: true, detail: pending === 0 ? 'every card delivered' : `${pending} card deliveries queued` };
  }
  const oldest = [...failing].sort((a, b) => a.since.localeCompare(b.since));
  const reasons = [...new Set(oldest.map((f) => f.error))].slice(0, 3);
  const first = oldest[0];
  return {
    name: 'card delivery',
    adapter,
    ok: false,
    detail: `${failing.length} card(s) not delivered yet (retrying; oldest ${first?.incidentId ?? '?'} since ${first?.since ?? '?'}, ${pending} queued): ${reasons.join(' | ')}${behind ? ` · ${behind}` : ''}`,
  };
}
