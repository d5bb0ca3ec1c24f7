import { z } from 'zod';
import type { ChatMessage } from '../ports/chat.js';
import { button } from './card-actions.js';
import { context, escapeMrkdwn, section, untrusted } from './mrkdwn.js';

export const OpenIncidentActionId = 'medic_open_incident';

/** What an Open incident button carries: the overflow incident and the family's fingerprint. */
export const OpenIncidentValue = z.object({ incidentId: z.string().min(1).max(200), fingerprint: z.string().min(1).max(200) });
export type OpenIncidentValue = z.infer<typeof OpenIncidentValue>;

export interface OverflowFamilyView {
  fingerprint: string;
  service: string;
  title: string;
  count: number;
}

const LISTED = 8;
const MAX_BLOCKS = 50;

/**
 * The overflow card's own part: the services it holds, the heaviest families with their counts,
 * and for each an Open incident button (approvers; the server checks who clicked). Appended to the
 * incident card, within Block Kit's 50 blocks.
 */
export function withOverflowFamilies(card: ChatMessage, overflowId: string, families: OverflowFamilyView[], interactive = true): ChatMessage {
  if (families.length === 0) return card;
  const services = [...new Set(families.map((f) => f.service))].sort();
  const shown = services.slice(0, 10).map((s) => `\`${escapeMrkdwn(s)}\``).join(', ');
  const blocks: Record<string, unknown>[] = [
    { type: 'divider' },
    context(`Services: ${shown}${services.length > 10 ? ` and ${services.length - 10} more` : ''}`),
  ];
  for (const family of families.slice(0, LISTED)) {
    const text = `*${untrusted(family.title, 300)}* — ${family.count} event${family.count === 1 ? '' : 's'} · \`${escapeMrkdwn(family.service)}\``;
    const block = section(text);
    if (interactive) block.accessory = button(OpenIncidentActionId, 'Open incident', { incidentId: overflowId, fingerprint: family.fingerprint } satisfies OpenIncidentValue);
    blocks.push(block);
  }
  if (families.length > LISTED) blocks.push(context(`…and ${families.length - LISTED} more famil${families.length - LISTED === 1 ? 'y' : 'ies'}`));
  const room = MAX_BLOCKS - card.blocks.length;
  return { text: card.text, blocks: [...card.blocks, ...blocks.slice(0, Math.max(0, room))] };
}
