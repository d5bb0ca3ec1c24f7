import { presentReviewers } from './card-route.js';
import { FIX_STEPS, PIPELINE_STEPS, isStepDone, type Incident, type StepName } from '../domain/incident.js';
import { escapeMrkdwn, untrusted, generated } from './mrkdwn.js';

// Partial on purpose: a step added to the domain shows under its own name until it gets a label.
const LABELS: Partial<Record<string, string>> = {
  intake: 'intake',
  'log-window': 'logs',
  'similar-docs': 'similar docs',
  'recent-changes': 'recent changes',
  rca: 'RCA',
  recommend: 'recommendation',
  'fix-proposal': 'fix proposal',
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

/**
 * The status in the words on-call people use: a pushed branch is "Branch pushed", an opened PR is
 * "Draft PR opened", then "Checks passed" or "Checks failed". Nothing here says "Fixed": only
 * production being healthy again would earn that, and Medic does not watch production.
 */
export function presentStatusWord(incident: Incident): string {
  const fix = incident.fix;
  switch (incident.state) {
    case 'new':
    case 'analyzing':
      return '⏳ Analysing';
    case 'awaiting_approval':
      return '🟡 Awaiting approval';
    case 'reported':
      return incident.fingerprint.startsWith('overflow:') ? '📦 Storm overflow' : 'ℹ️ Analysed — no fix proposed';
    case 'approved':
    case 'fixing':
      return '🔧 Approved — pushing';
    case 'fixed':
      if (fix?.checks === 'success') return '🟢 Checks passed';
      if (fix?.checks === 'failure') return '🔴 Checks failed';
      if (fix?.pullRequest) return '📬 Draft PR opened';
      return fix?.pushStatus === 'pushed' ? '🌿 Branch pushed' : '⚠️ Committed, not pushed';
    case 'fix_failed':
      return '❌ Fix failed';
    case 'rejected':
      return '🚫 Rejected';
    case 'closed':
      return '☑️ Closed';
  }
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
      if (incident.fingerprint.startsWith('overflow:')) return `📦 *Storm overflow* — ${untrusted(incident.proposalNote ?? 'new families above the hourly cap are counted here, not analysed', 300)}`;
      return `ℹ️ *Analysed — no fix proposed.*${incident.proposalNote ? ` ${untrusted(incident.proposalNote, 220)}` : ''}`;
    case 'approved':
      return `✅ *Approved by ${by}* — pushing…`;
    case 'fixing':
      return `🔧 *Approved by ${by}* — pushing…${branch ? ` (${branch})` : ''}`;
    case 'fixed': {
      const word = presentStatusWord(incident);
      const where = pr ? `${pr} from ${branch}` : `${branch}${fix?.pushStatus === 'pushed' ? ' — no PR opened (no code host configured)' : ''}`;
      return `${word.replace(/^(\S+) (.*)$/, '$1 *$2*')} — ${where}; approved by ${by}.`;
    }
    case 'fix_failed':
      return `❌ *Fix failed* — ${untrusted(incident.error ?? fix?.pushError ?? 'unknown reason', 400)}`;
    case 'rejected':
      return `🚫 *Rejected by ${by}*${decision?.reason ? `: ${untrusted(decision.reason, 400)}` : ''}`;
    case 'closed':
      return '☑️ *Closed*';
  }
}
