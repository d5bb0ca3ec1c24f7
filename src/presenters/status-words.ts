import type { Incident, IncidentState } from '../domain/incident.js';
import { windowEndMs } from '../domain/verification.js';

/** One status as every surface names it: the card, its thread, `/medic list`, the CLI and `doctor`. */
export interface StatusWord {
  icon: string;
  word: string;
}

/**
 * The one vocabulary, by incident state. A fixed incident says how far its fix got, from the same
 * list (`FIX_PROGRESS`), then how the watch of its merged fix went (`VERIFICATION_WORDS`). Nothing
 * here says "Fixed": Medic only sees the family's events, so the most it says is that they stopped
 * for the service's window after the deploy ("Resolved — verified").
 */
export const STATE_WORDS: Record<IncidentState, StatusWord> = {
  new: { icon: '⏳', word: 'Analysing' },
  analyzing: { icon: '⏳', word: 'Analysing' },
  awaiting_approval: { icon: '🟡', word: 'Awaiting approval' },
  reported: { icon: 'ℹ️', word: 'Analysed — no fix proposed' },
  approved: { icon: '🔧', word: 'Approved — pushing' },
  fixing: { icon: '🔧', word: 'Approved — pushing' },
  fixed: { icon: '🌿', word: 'Branch pushed' },
  fix_failed: { icon: '❌', word: 'Fix failed' },
  rejected: { icon: '🚫', word: 'Rejected' },
  closed: { icon: '☑️', word: 'Closed' },
};

/** How far a fixed incident's fix got, in the order it gets there. */
export const FIX_PROGRESS = {
  notPushed: { icon: '⚠️', word: 'Committed, not pushed' },
  branchPushed: STATE_WORDS.fixed,
  draftPullRequest: { icon: '📬', word: 'Draft PR opened' },
  checksPassed: { icon: '🟢', word: 'Checks passed' },
  checksFailed: { icon: '🔴', word: 'Checks failed' },
} as const satisfies Record<string, StatusWord>;

/**
 * How far the watch of a merged fix got, and what it found. Still only what happened: "verified"
 * is the family staying quiet for the service's window after the deploy, which Medic did watch.
 */
export const VERIFICATION_WORDS = {
  awaitingMerge: { icon: '📬', word: 'Awaiting merge' },
  awaitingDeploy: { icon: '🚀', word: 'Merged — awaiting deploy' },
  /** The word names the window's end: `watchingWord(verification)`. */
  watching: { icon: '👀', word: 'Merged — watching' },
  verified: { icon: '✅', word: 'Resolved — verified' },
  stillFailing: { icon: '🔁', word: 'Still failing after fix' },
  regressed: { icon: '↩️', word: 'Regressed' },
} as const satisfies Record<string, StatusWord>;

/** "Merged — watching until 14:40" (UTC), the end of the quiet window after the deploy. */
function watchingWord(verification: NonNullable<Incident['verification']>): StatusWord {
  const end = windowEndMs(verification);
  if (end === undefined || !Number.isFinite(end)) return VERIFICATION_WORDS.watching;
  return { ...VERIFICATION_WORDS.watching, word: `${VERIFICATION_WORDS.watching.word} until ${new Date(end).toISOString().slice(11, 16)}` };
}

/** The hour's storm overflow incident is reported, but it is a bucket of families, not an analysis. */
export const OVERFLOW_WORD: StatusWord = { icon: '📦', word: 'Storm overflow' };

/** What a status is read from; the verification fields are optional so a bare record still has a word. */
export type StatusSubject = Pick<Incident, 'state' | 'fix' | 'fingerprint'> & Partial<Pick<Incident, 'verification' | 'regressions' | 'resolution'>>;

export function statusOf(incident: StatusSubject): StatusWord {
  const fix = incident.fix;
  const verification = incident.verification;
  if (incident.state === 'reported' && incident.fingerprint.startsWith('overflow:')) return OVERFLOW_WORD;
  if (incident.state === 'closed' && incident.resolution?.kind === 'verified') return VERIFICATION_WORDS.verified;
  // Reopened: the merged fix was followed by events (still failing), or a verified family came back.
  if (incident.state === 'reported' && verification?.status === 'still_failing') return VERIFICATION_WORDS.stillFailing;
  if ((incident.state === 'reported' || incident.state === 'new') && (incident.regressions?.length ?? 0) > 0) return VERIFICATION_WORDS.regressed;
  if (incident.state !== 'fixed') return STATE_WORDS[incident.state];
  // Failed checks stay in front of a merge wait: someone has to act before the merge.
  if (verification && fix?.checks !== 'failure') {
    if (verification.status === 'awaiting_merge') return VERIFICATION_WORDS.awaitingMerge;
    if (verification.status === 'awaiting_deploy') return VERIFICATION_WORDS.awaitingDeploy;
    if (verification.status === 'watching') return watchingWord(verification);
    if (verification.status === 'verified') return VERIFICATION_WORDS.verified;
    if (verification.status === 'still_failing') return VERIFICATION_WORDS.stillFailing;
  }
  if (fix?.checks === 'success') return FIX_PROGRESS.checksPassed;
  if (fix?.checks === 'failure') return FIX_PROGRESS.checksFailed;
  if (fix?.pullRequest) return FIX_PROGRESS.draftPullRequest;
  return fix?.pushStatus === 'pushed' ? FIX_PROGRESS.branchPushed : FIX_PROGRESS.notPushed;
}

/** "🌿 Branch pushed": the status with its icon, as the card and `/medic list` show it. */
export function presentStatusWord(incident: StatusSubject): string {
  const { icon, word } = statusOf(incident);
  return `${icon} ${word}`;
}

/** "Branch pushed": the status alone, for a terminal column. */
export function plainStatusWord(incident: StatusSubject): string {
  return statusOf(incident).word;
}

/** The longest word, so a terminal column of statuses lines up. */
export const STATUS_WORD_WIDTH = Math.max(
  ...[...Object.values(STATE_WORDS), ...Object.values(FIX_PROGRESS), ...Object.values(VERIFICATION_WORDS), OVERFLOW_WORD].map((s) => s.word.length),
  `${VERIFICATION_WORDS.watching.word} until 00:00`.length,
);

/** "🚫 *Rejected*": a status word as an outcome line or a thread reply leads with it. */
export function presentStatusLead({ icon, word }: StatusWord): string {
  return `${icon} *${word}*`;
}
