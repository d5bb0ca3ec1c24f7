import type { ChatImage, ChatMessage } from '../ports/chat.js';
import type { IncidentView } from '../use-cases/incident-commands.js';
import { generated, section, untrusted } from './mrkdwn.js';

export type VerificationEvent = 'merged' | 'deployed' | 'verified' | 'still-failing' | 'regressed';

function clock(iso: string | undefined): string {
  return iso ? `${iso.slice(11, 16)} UTC` : 'an unknown time';
}

/** The thread's word on a merged fix: merged, deployed, verified, still failing, regressed. Pure. */
export function presentVerificationReply({ incident }: IncidentView, event: VerificationEvent, image?: ChatImage): ChatMessage {
  const v = incident.verification;
  const branch = incident.fix ? `\`${generated(incident.fix.branch, 200)}\`` : 'the fix';
  const title = `\`${untrusted(incident.displayTitle ?? incident.title, 120)}\``;
  const window = `${v?.windowMinutes ?? 0} min`;
  const text = (() => {
    switch (event) {
      case 'merged':
        return `*Merged* — ${branch} at ${clock(v?.mergedAt)}${incident.fix?.pullRequest ? ` (PR #${incident.fix.pullRequest.number})` : ''}. ${v?.status === 'awaiting_deploy' ? `Waiting for the deploy, then watching ${title} for ${window}.` : `Watching ${title} for ${window}.`}`;
      case 'deployed':
        return `*Deployed* — ${untrusted(v?.deployMarker ?? 'the fix', 200)} at ${clock(v?.deployedAt)}; watching ${title} for ${window}.`;
      case 'verified':
        return `*Resolved — verified* — no ${title} events in ${window} since the fix was deployed at ${clock(v?.deployedAt)} (before: ${v?.beforePerHour ?? 0} / h).`;
      case 'still-failing':
        return `*Still failing* — ${v?.eventsSince ?? 0} ${title} events since the deploy at ${clock(v?.deployedAt)}; the incident is open again, with the fix ${branch} linked.`;
      case 'regressed': {
        const last = incident.regressions.at(-1);
        return `*Regressed* — first event at ${clock(last?.firstEventAt)}, after fix \`${generated(last?.afterBranch ?? incident.fix?.branch ?? '', 200)}\`; the incident is open again.`;
      }
    }
  })();
  return { text, blocks: [section(text)], ...(image ? { image } : {}) };
}
