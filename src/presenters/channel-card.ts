import type { EventRate } from '../domain/event-rate.js';
import type { Incident, IncidentStats } from '../domain/incident.js';
import type { ChatMessage } from '../ports/chat.js';
import type { OverflowFamily } from '../ports/incident-store.js';
import { presentIncidentCard, type CardOptions } from './incident-card.js';
import { withOverflowFamilies } from './overflow-card.js';

export interface ChannelCardView {
  incident: Incident;
  stats?: IncidentStats;
  /** The family's events per minute and when they were read (the card's sparkline). */
  rate?: EventRate;
  nowMs?: number;
  /** The overflow incident's heaviest families (its card lists them). */
  overflowFamilies?: OverflowFamily[];
}

/**
 * The card as it stands in the channel: the incident card, plus the overflow's families on the
 * overflow card and the resolution line on a card closed as quiet. The one render every card
 * write sends, so what the ledger records is what the channel shows.
 */
export function presentChannelCard(view: ChannelCardView, options?: CardOptions): ChatMessage {
  let card = presentIncidentCard({ incident: view.incident, stats: view.stats, ...(view.rate ? { rate: view.rate } : {}), ...(view.nowMs !== undefined ? { nowMs: view.nowMs } : {}) }, options);
  if (view.overflowFamilies) card = withOverflowFamilies(card, view.incident.id, view.overflowFamilies);
  const resolution = view.incident.resolution;
  if (view.incident.state === 'closed' && !view.incident.mergedInto && resolution) {
    card = resolution.kind === 'verified' ? withResolutionText(card, verifiedLine(view.incident)) : withResolution(card, resolution.quietMinutes);
  }
  return card;
}

/** Adds the resolution line to the closed card (kept within Block Kit's 50 blocks). */
export function withResolution(message: ChatMessage, minutes: number): ChatMessage {
  return withResolutionText(message, `✅ Resolved after ${minutes} quiet minutes: no new events of this family.`);
}

function withResolutionText(message: ChatMessage, text: string): ChatMessage {
  const block = { type: 'context', block_id: 'medic_resolved', elements: [{ type: 'mrkdwn', text }] };
  return { ...message, blocks: [...message.blocks.slice(0, 49), block] };
}

/** What earned "verified": the family stayed quiet for the window after the fix was deployed. */
function verifiedLine(incident: Incident): string {
  const verification = incident.verification;
  const window = verification?.windowMinutes ?? incident.resolution?.quietMinutes ?? 0;
  const deployed = verification?.deployedAt && Number.isFinite(Date.parse(verification.deployedAt)) ? ` deployed at ${new Date(Date.parse(verification.deployedAt)).toISOString().slice(11, 16)} UTC` : ' deployed';
  const before = verification?.beforePerHour !== undefined ? ` (before: ${verification.beforePerHour} / h)` : '';
  return `✅ Resolved — verified: no events of this family in the ${window} min after the fix was${deployed}${before}.`;
}
