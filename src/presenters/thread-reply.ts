import { presentReviewers } from './card-route.js';
import type { ChatMessage } from '../ports/chat.js';
import type { IncidentView } from '../use-cases/incident-commands.js';
import { presentActor, presentLink } from './card-progress.js';
import { section, untrusted, generated } from './mrkdwn.js';
import { FIX_PROGRESS, STATE_WORDS, presentStatusLead as bold } from './status-words.js';

/** The moments of the fix round that earn a reply in the card's thread. */
export type ThreadEvent = 'approved' | 'branch' | 'pull-request' | 'checks' | 'fix-failed' | 'rejected';

function message(text: string): ChatMessage {
  return { text, blocks: [section(text)] };
}

/**
 * Thread replies for the branch, the PR and its checks. Pure, like the card; the same incident
 * record drives both, so the thread never contradicts the card.
 */
export function presentThreadReply({ incident }: IncidentView, event: ThreadEvent): ChatMessage {
  const fix = incident.fix;
  const branch = fix ? `\`${generated(fix.branch, 200)}\`` : 'the fix branch';
  const by = incident.decision ? presentActor(incident.decision.actor) : 'an approver';
  switch (event) {
    case 'approved':
      return message(`${bold(STATE_WORDS.approved)} — approved by ${by}; Medic is preparing the fix.`);
    case 'branch':
      if (fix?.pushStatus === 'failed') return message(`${bold(FIX_PROGRESS.notPushed)} — committed on ${branch} but the push failed: ${untrusted(fix.pushError ?? 'unknown error', 400)}`);
      return message(`${bold(FIX_PROGRESS.branchPushed)} — ${branch}${fix ? ` (commit \`${untrusted(fix.commit.slice(0, 12), 12)}\`)` : ''}.`);
    case 'pull-request':
      return message(fix?.pullRequest
        ? `${bold(FIX_PROGRESS.draftPullRequest)} — ${presentLink(fix.pullRequest.url, `#${fix.pullRequest.number}`)} from ${branch}${presentReviewers(incident)}.`
        : `${bold(FIX_PROGRESS.branchPushed)} — ${branch} is ready; no pull request was opened (no code host configured).`);
    case 'checks': {
      const checks = fix?.checks ?? 'pending';
      const status = checks === 'success' ? bold(FIX_PROGRESS.checksPassed) : checks === 'failure' ? bold(FIX_PROGRESS.checksFailed) : '⏳ *Checks running*';
      return message(`${status} on ${branch}${fix?.pullRequest ? ` — ${presentLink(fix.pullRequest.url, 'open the PR')}` : ''}`);
    }
    case 'fix-failed':
      return message(`${bold(STATE_WORDS.fix_failed)} — ${untrusted(incident.error ?? fix?.pushError ?? 'unknown reason', 600)}. Re-run with \`/medic fix ${untrusted(incident.id, 100)}\`.`);
    case 'rejected':
      return message(`${bold(STATE_WORDS.rejected)} by ${by}${incident.decision?.reason ? `: ${untrusted(incident.decision.reason, 600)}` : ''}. Nothing is pushed; \`/medic fix ${untrusted(incident.id, 100)} [reason]\` asks for a new proposal.`);
  }
}
