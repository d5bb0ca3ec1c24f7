import { presentReviewers } from './card-route.js';
import { FIX_STEPS, PIPELINE_STEPS, isStepDone, type Incident, type StepName } from '../domain/incident.js';
import { escapeMrkdwn, untrusted, generated } from './mrkdwn.js';
import { OVERFLOW_WORD, STATE_WORDS, VERIFICATION_WORDS, presentStatusLead as bold, statusOf } from './status-words.js';

// Partial on purpose: a step added to the domain shows under its own name until it gets a label.
const LABELS: Partial<Record<string, string>> = {
  intake: 'intake',
  'log-window': 'logs',
  'similar-docs': 'similar docs',
  'recent-changes': 'recent changes',
  rca: 'RCA',
  recommend: 'recommendation',
  'fix-proposal': 'fix proposal',
  'proposal-check': 'check',
  card: 'card',
  publish: 'branch',
  'pull-request': 'pull request',
  'thread-reply': 'thread reply',
};

/**
 * "✓ logs ✓ similar docs ⏳ RCA · recommendation": the card is posted early and updated in place
 * after each persisted step, so the channel sees the analysis move.
 */
export function presentProgress(incident: Incident): string {
  const running = incident.state === 'analyzing' || incident.state === 'new' || incident.state === 'fixing';
  const steps: readonly StepName[] = incident.state === 'fixing' || incident.fix ? [...PIPELINE_STEPS, ...FIX_STEPS] : PIPELINE_STEPS;
  let current = false;
  const parts = steps
    // The same-failure check is a lookup, not work on-call waits for; its outcome has its own line.
    .filter((step) => step !== 'card' && step !== 'thread-reply' && step !== 'same-failure')
    .map((step) => {
      // A finished PR step without a PR (no code host) must not read as "✓ pull request".
      if (isStepDone(incident, step)) return step === 'pull-request' && !incident.fix?.pullRequest ? '– no PR' : `✓ ${LABELS[step] ?? step}`;
      if (running && !current) {
        current = true;
        return `⏳ ${LABELS[step] ?? step}`;
      }
      return running ? `· ${LABELS[step] ?? step}` : undefined;
    })
    .filter((part): part is string => part !== undefined);
  return parts.join('  ');
}

/** A verified Slack user id renders as a mention; anything else (CLI operator) as escaped text. */
export function presentActor(actor: { id: string; name?: string | undefined }): string {
  if (/^[UW][A-Z0-9]{2,}$/.test(actor.id)) return `<@${actor.id}>`;
  return escapeMrkdwn(actor.name ?? actor.id);
}

/** Only http(s) URLs without mrkdwn metacharacters become links; anything else shows as text. */
export function presentLink(url: string, label: string): string {
  return /^https?:\/\/[^\s<>|]+$/.test(url) ? `<${url}|${escapeMrkdwn(label)}>` : `${escapeMrkdwn(label)} (${untrusted(url, 200)})`;
}

export function presentOutcome(incident: Incident): string | undefined {
  const decision = incident.decision;
  const by = decision ? presentActor(decision.actor) : 'someone';
  const fix = incident.fix;
  const branch = fix ? `branch \`${generated(fix.branch, 200)}\`` : '';
  const pr = fix?.pullRequest ? `draft PR ${presentLink(fix.pullRequest.url, `#${fix.pullRequest.number}`)}${presentReviewers(incident)}` : '';
  switch (incident.state) {
    case 'new':
    case 'analyzing':
      return undefined;
    case 'awaiting_approval':
      return undefined;
    case 'reported':
      if (incident.fingerprint.startsWith('overflow:')) return `${bold(OVERFLOW_WORD)} — ${untrusted(incident.proposalNote ?? 'new families above the hourly cap are counted here, not analysed', 300)}`;
      if (statusOf(incident) === VERIFICATION_WORDS.stillFailing || statusOf(incident) === VERIFICATION_WORDS.regressed) return presentReopened(incident);
      // The status field already says "Analysed — no fix proposed": this line only says why.
      return incident.proposalNote ? `ℹ️ ${untrusted(incident.proposalNote, 220)}` : undefined;
    case 'approved':
      return `${bold(STATE_WORDS.approved)} — approved by ${by}`;
    case 'fixing':
      return `${bold(STATE_WORDS.fixing)} — approved by ${by}${branch ? ` (${branch})` : ''}`;
    case 'fixed': {
      const where = pr ? `${pr} from ${branch}` : `${branch}${fix?.pushStatus === 'pushed' ? ' — no PR opened (no code host configured)' : ''}`;
      return `${bold(statusOf(incident))} — ${where}; approved by ${by}.`;
    }
    case 'fix_failed':
      return `${bold(STATE_WORDS.fix_failed)} — ${untrusted(incident.error ?? fix?.pushError ?? 'unknown reason', 400)}`;
    case 'rejected':
      return `${bold(STATE_WORDS.rejected)} by ${by}${decision?.reason ? `: ${untrusted(decision.reason, 400)}` : ''}`;
    case 'closed':
      if (incident.resolution?.kind === 'verified') {
        const linked = presentFixLink(incident);
        return `${bold(VERIFICATION_WORDS.verified)}${linked ? ` — ${linked}` : ''}`;
      }
      return bold(STATE_WORDS.closed);
  }
}

const clock = (iso: string | undefined) => (iso && Number.isFinite(Date.parse(iso)) ? new Date(Date.parse(iso)).toISOString().slice(11, 16) : undefined);

/** "fix `fix/inc-1-…` (PR #12)": the fix a verification is about, linked. */
export function presentFixLink(incident: Incident): string | undefined {
  const fix = incident.fix ?? incident.earlierFixes.at(-1);
  if (!fix) return undefined;
  return `fix \`${generated(fix.branch, 200)}\`${fix.pullRequest ? ` (${presentLink(fix.pullRequest.url, `PR #${fix.pullRequest.number}`)})` : ''}`;
}

/** The reopened card's line: the family kept failing after the deploy, or came back after a verified fix. */
function presentReopened(incident: Incident): string {
  const linked = presentFixLink(incident);
  const verification = incident.verification;
  if (statusOf(incident) === VERIFICATION_WORDS.stillFailing) {
    const since = verification?.eventsSince;
    const at = clock(verification?.deployedAt);
    const events = since === undefined ? 'events' : `${since} event${since === 1 ? '' : 's'}`;
    return `${bold(VERIFICATION_WORDS.stillFailing)} — ${events} after the deploy${at ? ` at ${at} UTC` : ''}${linked ? `; ${linked} stays linked` : ''}.`;
  }
  const regression = incident.regressions.at(-1);
  const first = clock(regression?.firstEventAt);
  const after = regression ? `fix \`${generated(regression.afterBranch, 200)}\`` : linked;
  return `${bold(VERIFICATION_WORDS.regressed)} — the family came back${first ? ` at ${first} UTC` : ''}${after ? `, after ${after}` : ''}.`;
}
