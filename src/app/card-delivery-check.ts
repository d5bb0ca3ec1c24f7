import type { DeliveryFailure } from '../ports/card-delivery.js';
import type { ServiceCheck } from '../ports/service-check.js';

/**
 * `doctor`'s line for cards: how many wait for delivery and, for those Slack refuses, why and what
 * to fix (the failure's message carries the operator's next step, e.g. "invite the bot").
 */
export function describeCardDelivery(failing: (DeliveryFailure & { incidentId: string })[], queued: Record<string, number>): ServiceCheck {
  const pending = Object.values(queued).reduce((sum, n) => sum + n, 0);
  const adapter = 'deliver-card job';
  if (failing.length === 0) return { name: 'card delivery', adapter, ok: true, detail: pending === 0 ? 'every card delivered' : `${pending} card deliveries queued` };
  const oldest = [...failing].sort((a, b) => a.since.localeCompare(b.since));
  const reasons = [...new Set(oldest.map((f) => f.error))].slice(0, 3);
  const first = oldest[0];
  return {
    name: 'card delivery',
    adapter,
    ok: false,
    detail: `${failing.length} card(s) not delivered yet (retrying; oldest ${first?.incidentId ?? '?'} since ${first?.since ?? '?'}, ${pending} queued): ${reasons.join(' | ')}`,
  };
}
