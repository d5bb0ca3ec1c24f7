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
  '• `/medic timeline <incident>` — what happened when, from the audit trail (first event, card, analysis, decisions, push, PR, checks, merge, deploy, verification)',
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

const listLine = ({ incident, stats }: IncidentView) =>
  `• \`${untrusted(incident.id, 100)}\` ${incident.severity} · *${untrusted(incident.service, 80)}* · ${untrusted(presentIncidentTitle(incident), 140)} · ${presentStatusWord(incident)}${stats ? ` · ${stats.count}×` : ''}`;

/** "2 awaiting merge · 1 watching": the watches by their stage. */
export function verificationTally(views: readonly IncidentView[]): string {
  const counts = new Map<string, number>();
  for (const { incident } of views) {
    const stage = (incident.verification?.status ?? 'awaiting_merge').replace(/_/g, ' ');
    counts.set(stage, (counts.get(stage) ?? 0) + 1);
  }
  return [...counts].map(([stage, n]) => `${n} ${stage}`).join(' · ');
}

/** Open incidents, then the fixed ones whose merged fix is still watched (`awaiting`). */
export function presentList(views: IncidentView[], awaiting: IncidentView[] = []): ChatMessage {
  const blocks: Record<string, unknown>[] = [];
  if (views.length === 0) blocks.push(section('No open incidents. 🎉'));
  else {
    const more = views.length > 20 ? `\n_…and ${views.length - 20} more_` : '';
    blocks.push(section(`*Open incidents* (${views.length})\n${views.slice(0, 20).map(listLine).join('\n')}${more}`));
  }
  if (awaiting.length > 0) {
    const more = awaiting.length > 20 ? `\n_…and ${awaiting.length - 20} more_` : '';
    blocks.push(section(`*Awaiting verification* (${awaiting.length}: ${verificationTally(awaiting)})\n${awaiting.slice(0, 20).map(listLine).join('\n')}${more}`));
  }
  const text = `Open incidents: ${views.length}${awaiting.length > 0 ? ` · awaiting verification: ${awaiting.length}` : ''}`;
  return { text: views.length === 0 && awaiting.length === 0 ? 'No open incidents. 🎉' : text, blocks };
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
