import type { Incident, IncidentStats } from '../domain/incident.js';
import type { ChatMessage } from '../ports/chat.js';
import type { OverflowFamily } from '../ports/incident-store.js';
import { presentIncidentCard, type CardOptions } from './incident-card.js';
import { withOverflowFamilies } from './overflow-card.js';

export interface ChannelCardView {
  incident: Incident;
  stats?: IncidentStats;
  /** The overflow incident's heaviest families (its card lists them). */
  overflowFamilies?: OverflowFamily[];
}

/**
 * The card as it stands in the channel: the incident card, plus the overflow's families on the
 * overflow card and the resolution line on a card closed as quiet. The one render every card
 * write sends, so what the ledger records is what the channel shows.
 */
export function presentChannelCard(view: ChannelCardView, options?: CardOptions): ChatMessage {
  let card = presentIncidentCard({ incident: view.incident, stats: view.stats }, options);
  if (view.overflowFamilies) card = withOverflowFamilies(card, view.incident.id, view.overflowFamilies);
  const minutes = view.incident.resolution?.quietMinutes;
  if (view.incident.state === 'closed' && !view.incident.mergedInto && minutes !== undefined) card = withResolution(card, minutes);
  return card;
}

/** Adds the resolution line to the closed card (kept within Block Kit's 50 blocks). */
export function withResolution(message: ChatMessage, minutes: number): ChatMessage {
  const block = { type: 'context', block_id: 'medic_resolved', elements: [{ type: 'mrkdwn', text: `✅ Resolved after ${minutes} quiet minutes: no new events of this family.` }] };
  return { ...message, blocks: [...message.blocks.slice(0, 49), block] };
}
