import type { Incident, IncidentState } from '../domain/incident.js';

/** One status as every surface names it: the card, its thread, `/medic list`, the CLI and `doctor`. */
export interface StatusWord {
  icon: string;
  word: string;
}

/**
 * The one vocabulary, by incident state. A fixed incident says how far its fix got, from the same
 * list (`FIX_PROGRESS`). Nothing here says "Fixed": only production being healthy again would
 * earn that, and Medic does not watch production.
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

/** The hour's storm overflow incident is reported, but it is a bucket of families, not an analysis. */
export const OVERFLOW_WORD: StatusWord = { icon: '📦', word: 'Storm overflow' };

export function statusOf(incident: Pick<Incident, 'state' | 'fix' | 'fingerprint'>): StatusWord {
  const fix = incident.fix;
  if (incident.state === 'reported' && incident.fingerprint.startsWith('overflow:')) return OVERFLOW_WORD;
  if (incident.state !== 'fixed') return STATE_WORDS[incident.state];
  if (fix?.checks === 'success') return FIX_PROGRESS.checksPassed;
  if (fix?.checks === 'failure') return FIX_PROGRESS.checksFailed;
  if (fix?.pullRequest) return FIX_PROGRESS.draftPullRequest;
  return fix?.pushStatus === 'pushed' ? FIX_PROGRESS.branchPushed : FIX_PROGRESS.notPushed;
}

/** "🌿 Branch pushed": the status with its icon, as the card and `/medic list` show it. */
export function presentStatusWord(incident: Pick<Incident, 'state' | 'fix' | 'fingerprint'>): string {
  const { icon, word } = statusOf(incident);
  return `${icon} ${word}`;
}

/** "Branch pushed": the status alone, for a terminal column. */
export function plainStatusWord(incident: Pick<Incident, 'state' | 'fix' | 'fingerprint'>): string {
  return statusOf(incident).word;
}

/** The longest word, so a terminal column of statuses lines up. */
export const STATUS_WORD_WIDTH = Math.max(...[...Object.values(STATE_WORDS), ...Object.values(FIX_PROGRESS), OVERFLOW_WORD].map((s) => s.word.length));

/** "🚫 *Rejected*": a status word as an outcome line or a thread reply leads with it. */
export function presentStatusLead({ icon, word }: StatusWord): string {
  return `${icon} *${word}*`;
}
