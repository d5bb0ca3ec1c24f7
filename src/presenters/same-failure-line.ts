import type { CardRef, Incident } from '../domain/incident.js';
import { presentLink } from './card-progress.js';
import { code, generated, untrusted } from './mrkdwn.js';

/**
 * A Slack message link from its channel and ts. Workspace-neutral: Slack opens it in the
 * workspace the reader is signed in to (chat.getPermalink would name the workspace, at one call).
 * Undefined for a card that is no Slack message (the console's).
 */
export function presentCardUrl(card: CardRef): string | undefined {
  if (!/^[A-Z0-9]{2,}$/.test(card.channel) || !/^\d+\.\d+$/.test(card.ts)) return undefined;
  return `https://slack.com/archives/${card.channel}/p${card.ts.replace('.', '')}`;
}

/**
 * The context-line part that links two services' incidents of one failure: on the second card
 * "same failure as <first>" (a link to its card), on the first "also reported by …".
 */
export function presentSameFailure(incident: Incident): string | undefined {
  const same = incident.sameFailureAs;
  if (same) {
    const url = same.card && presentCardUrl(same.card);
    const id = url ? presentLink(url, same.incidentId) : `\`${generated(same.incidentId, 100)}\``;
    return `🧬 same failure as ${id} in ${code(same.service, 80)} (${untrusted(same.title, 120)}): the fix is proposed there, once`;
  }
  if (incident.sameFailures.length === 0) return undefined;
  const shown = incident.sameFailures.slice(0, 5).map((s) => `${code(s.service, 80)} (\`${generated(s.incidentId, 100)}\`)`).join(', ');
  const more = incident.sameFailures.length > 5 ? ` and ${incident.sameFailures.length - 5} more` : '';
  return `🧬 also reported by ${shown}${more}: this card's fix is theirs too`;
}
