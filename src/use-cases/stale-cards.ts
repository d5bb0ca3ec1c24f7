import type { Incident, IncidentState } from '../domain/incident.js';
import type { CardDeliveries, CardDeliveryState } from '../ports/card-delivery.js';
import type { IncidentStore } from '../ports/incident-store.js';

/** Every state but closed: the incidents whose card someone may still act on. */
const OPEN_STATES: IncidentState[] = ['new', 'analyzing', 'awaiting_approval', 'reported', 'approved', 'rejected', 'fixing', 'fixed', 'fix_failed'];
/** A write this recent may still be on its way to Slack: it is not called behind yet. */
const GRACE_MS = 30_000;
const LIMIT = 1_000;

export interface StaleCard {
  incidentId: string;
  /** The state the card last showed (undefined: nothing recorded, or no card at all). */
  shows?: string;
  state: IncidentState;
  posted: boolean;
}

/**
 * Open incidents whose card is behind them: the state its last delivered render showed is not the
 * incident's, or an analysed incident has no card. Writes younger than the grace time are left out.
 */
export async function findStaleCards(deps: { store: IncidentStore; cards: CardDeliveryState }, nowMs: number, graceMs = GRACE_MS): Promise<StaleCard[]> {
  const open = (await deps.store.list({ states: OPEN_STATES, limit: LIMIT })).filter((i) => nowMs - Date.parse(i.updatedAt) >= graceMs && !i.mergedInto);
  const sent = await deps.cards.lastSentMany(open.map((i) => i.id));
  const stale: StaleCard[] = [];
  open.forEach((incident, i) => {
    const shows = sent[i]?.state;
    if (isBehind(incident, shows)) stale.push({ incidentId: incident.id, ...(shows === undefined ? {} : { shows }), state: incident.state, posted: incident.card !== undefined });
  });
  return stale;
}

function isBehind(incident: Incident, shows: string | undefined): boolean {
  if (!incident.card) return incident.state !== 'new';
  return shows !== incident.state;
}

/** Asks for every stale card to be delivered again; the delivery renders the record as it is. */
export async function repairStaleCards(deps: { store: IncidentStore; cards: CardDeliveryState; deliveries: CardDeliveries }, nowMs: number): Promise<StaleCard[]> {
  const stale = await findStaleCards(deps, nowMs);
  for (const card of stale) {
    const incident = await deps.store.get(card.incidentId);
    if (incident) await deps.deliveries.requestCard(incident.id, incident.version, 'final', `repair-${nowMs}`);
  }
  return stale;
}
