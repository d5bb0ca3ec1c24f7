import type { ChatMessage } from '../ports/chat.js';
import type { IncidentView } from '../use-cases/incident-commands.js';
import { presentIncidentCard } from './incident-card.js';
import { ActionId, button, type RerunValue } from './card-actions.js';
import { section, untrusted } from './mrkdwn.js';
import { presentStatusWord } from './status-words.js';
import { presentIncidentTitle } from './incident-title.js';

export const HELP_TEXT = [
  '*Medic* — `/medic <command>`',
  '• `/medic list` — open incidents',
  '• `/medic status <incident>` — the full card for one incident',
  '• `/medic fix <incident> [reason]` — re-run the analysis and the fix proposal; the reason (or the rejection\'s) and the previous proposal are given to the analyst. On an incident whose branch was pushed it asks you to confirm first, and the branch stays on record',
  '• `/medic help` — this message',
].join('\n');

export function presentHelp(prefix?: string): ChatMessage {
  const text = prefix ? `${prefix}\n${HELP_TEXT}` : HELP_TEXT;
  return { text, blocks: [section(text)] };
}

export function presentStatus(view: IncidentView | undefined, incidentId: string): ChatMessage {
  if (!view) return presentNotice(`No incident \`${untrusted(incidentId, 100)}\`. Try \`/medic list\`.`);
  return presentIncidentCard(view, { interactive: false });
}

export function presentList(views: IncidentView[]): ChatMessage {
  if (views.length === 0) return presentNotice('No open incidents. 🎉');
  const lines = views.slice(0, 20).map(({ incident, stats }) =>
    `• \`${untrusted(incident.id, 100)}\` ${incident.severity} · *${untrusted(incident.service, 80)}* · ${untrusted(presentIncidentTitle(incident), 140)} · ${presentStatusWord(incident)}${stats ? ` · ${stats.count}×` : ''}`);
  const more = views.length > 20 ? `\n_…and ${views.length - 20} more_` : '';
  const text = `*Open incidents* (${views.length})\n${lines.join('\n')}${more}`;
  return { text: `Open incidents: ${views.length}`, blocks: [section(text)] };
}

export function presentNotice(text: string): ChatMessage {
  return { text, blocks: [section(text)] };
}

/** The confirm step of `/medic fix` on an incident whose fix branch was pushed: only the caller sees it. */
export function presentRerunConfirm(message: string, value: RerunValue): ChatMessage {
  return {
    text: message,
    blocks: [
      section(untrusted(message, 1_500)),
      { type: 'actions', block_id: 'medic_rerun', elements: [button(ActionId.RerunConfirm, 'Re-run anyway', value, { style: 'danger' })] },
    ],
  };
}
