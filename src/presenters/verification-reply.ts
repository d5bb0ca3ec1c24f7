import type { Incident } from '../domain/incident.js';
import { windowEndMs } from '../domain/verification.js';
import type { ChatImage, ChatMessage } from '../ports/chat.js';
import type { IncidentView } from '../use-cases/incident-commands.js';
import { presentLink } from './card-progress.js';
import { presentIncidentTitle } from './incident-title.js';
import { generated, section, untrusted } from './mrkdwn.js';
import { VERIFICATION_WORDS, presentStatusLead as bold } from './status-words.js';

/** The moments of the watch of a merged fix that earn a reply in the card's thread. */
export type VerificationEvent = 'merged' | 'deployed' | 'verified' | 'still-failing' | 'regressed';

const clock = (iso: string | undefined): string | undefined => {
  const ms = iso === undefined ? Number.NaN : Date.parse(iso);
  return Number.isFinite(ms) ? `${new Date(ms).toISOString().slice(11, 16)} UTC` : undefined;
};
const clockMs = (ms: number | undefined): string | undefined => (ms !== undefined && Number.isFinite(ms) ? clock(new Date(ms).toISOString()) : undefined);

function branchOf(incident: Incident): string {
  const fix = incident.fix ?? incident.earlierFixes.at(-1);
  return fix ? `\`${generated(fix.branch, 200)}\`` : 'the fix';
}

function pullRequestOf(incident: Incident): string {
  const pr = (incident.fix ?? incident.earlierFixes.at(-1))?.pullRequest;
  return pr ? ` (${presentLink(pr.url, `PR #${pr.number}`)})` : '';
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The thread replies of the verification: the merge, the deploy, and the verdict (quiet for the
 * window: verified; events after the deploy: still failing; back after a verified fix: regressed).
 * Pure, read from the incident's verification record. With `image` (the before/after chart), the
 * reply is posted as that file with this text as its comment, so the text stands on its own.
 */
export function presentVerificationReply(view: IncidentView, event: VerificationEvent, image?: ChatImage): ChatMessage {
  const { incident } = view;
  const verification = incident.verification;
  const branch = branchOf(incident);
  const window = verification ? `${verification.windowMinutes} min` : 'the window';
  const deployedAt = clock(verification?.deployedAt);
  const title = `“${untrusted(presentIncidentTitle(incident), 120)}”`;
  let text: string;
  switch (event) {
    case 'merged': {
      const at = clock(verification?.mergedAt);
      // Without a deploy marker the merge is the deploy: the watch has already begun.
      const until = verification?.status === 'watching' ? clockMs(windowEndMs(verification)) : undefined;
      const watch = until ? `watching the family for ${window}, until ${until}` : `watching the family for ${window} after the deploy`;
      text = `🔀 *Merged* ${branch}${at ? ` at ${at}` : ''}${pullRequestOf(incident)} — ${watch}.`;
      break;
    }
    case 'deployed': {
      const marker = verification?.deployMarker ? ` (${untrusted(verification.deployMarker, 120)})` : '';
      const until = verification ? clockMs(windowEndMs(verification)) : undefined;
      text = `🚀 *Deployed*${deployedAt ? ` at ${deployedAt}` : ''}${marker} — ${branch} is live; the family must stay quiet for ${window}${until ? `, until ${until}` : ''}.`;
      break;
    }
    case 'verified': {
      const before = verification?.beforePerHour !== undefined ? ` (before: ${verification.beforePerHour} / h)` : '';
      text = `${bold(VERIFICATION_WORDS.verified)} — no ${title} events in ${window} since the fix was deployed${deployedAt ? ` at ${deployedAt}` : ''}${before}. Fix ${branch}${pullRequestOf(incident)}.`;
      break;
    }
    case 'still-failing': {
      const since = verification?.eventsSince;
      text = `${bold({ icon: VERIFICATION_WORDS.stillFailing.icon, word: 'Still failing' })} — ${since === undefined ? 'events' : count(since, 'event')} since the deploy${deployedAt ? ` at ${deployedAt}` : ''}; the incident is open again with the fix ${branch}${pullRequestOf(incident)} linked.`;
      break;
    }
    case 'regressed': {
      const regression = incident.regressions.at(-1);
      const first = clock(regression?.firstEventAt);
      const after = regression ? `\`${generated(regression.afterBranch, 200)}\`` : branch;
      text = `${bold(VERIFICATION_WORDS.regressed)} — ${first ? `first event at ${first}` : 'the family is back'}, after fix ${after}; the incident is open again.`;
      break;
    }
  }
  return { text, blocks: [section(text)], ...(image ? { image } : {}) };
}
