import type { ChatMessage } from '../ports/chat.js';
import type { IncidentView } from '../use-cases/incident-commands.js';
import { presentIncidentCard } from './incident-card.js';
import { section, untrusted } from './mrkdwn.js';

export const HELP_TEXT = [
  '*Medic* — `/medic <command>`',
  '• `/medic list` — open incidents',
  '• `/medic status <incident>` — the full card for one incident',
  '• `/medic fix <incident>` — re-run the analysis and fix proposal',
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
    `• \`${untrusted(incident.id, 100)}\` ${incident.severity} · *${untrusted(incident.service, 80)}* · ${untrusted(incident.title, 140)} · _${incident.state.replace('_', ' ')}_${stats ? ` · ${stats.count}×` : ''}`);
  const more = views.length > 20 ? `\n_…and ${views.length - 20} more_` : '';
  const text = `*Open incidents* (${views.length})\n${lines.join('\n')}${more}`;
  return { text: `Open incidents: ${views.length}`, blocks: [section(text)] };
}

export function presentNotice(text: string): ChatMessage {
  return { text, blocks: [section(text)] };
}
