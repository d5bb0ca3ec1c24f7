import { z } from 'zod';

/**
 * Whether a merged fix made its family's errors stop. The watch starts when the fix's PR is
 * merged (the fix branch reaching the default branch, on a plain git remote) and, where the
 * service configures one, a deploy marker follows; from the deploy on, the family must stay quiet
 * for the service's window. No verdict is ever reached without a merge.
 */
export const VerificationStatus = z.enum(['awaiting_merge', 'awaiting_deploy', 'watching', 'verified', 'still_failing']);
export type VerificationStatus = z.infer<typeof VerificationStatus>;

export const Verification = z.object({
  status: VerificationStatus,
  /** When the watch began (the fix's push). */
  since: z.string(),
  /** How long the family must stay quiet after the deploy (the service's setting when the watch began). */
  windowMinutes: z.number().positive(),
  mergedAt: z.string().optional(),
  /** The commit on the default branch that brought the fix in. */
  mergeCommit: z.string().max(64).optional(),
  deployedAt: z.string().optional(),
  /** What counted as the deploy: the merge itself, a GitHub deployment or release, or a log line. */
  deployMarker: z.string().max(200).optional(),
  /** The family's events per hour before the deploy (over its active span). */
  beforePerHour: z.number().nonnegative().optional(),
  /** The family's event count when the deploy was seen. */
  countAtDeploy: z.number().int().nonnegative().optional(),
  decidedAt: z.string().optional(),
  /** Events of the family with a time after the deploy, when the verdict was reached. */
  eventsSince: z.number().int().nonnegative().optional(),
  /** How many times Medic looked (merge, deploy and verdict looks together). */
  looks: z.number().int().nonnegative().default(0),
});
export type Verification = z.infer<typeof Verification>;

/** The family came back after a verified fix: the same incident reopened. */
export const Regression = z.object({
  at: z.string(),
  /** The time of the first event after the verified quiet. */
  firstEventAt: z.string(),
  /** The fix branch the family came back after. */
  afterBranch: z.string(),
});
export type Regression = z.infer<typeof Regression>;

/** What a service configures for the watch (catalog `verify:`; defaults from the environment). */
export interface VerifySettings {
  windowMinutes: number;
  /** When set, the deploy is a marker after the merge, not the merge itself. */
  deploy?: { kind: 'github-deployment'; environment?: string } | { kind: 'github-release' } | { kind: 'log-line'; pattern: string };
}

export function startVerification(at: string, settings: VerifySettings): Verification {
  return { status: 'awaiting_merge', since: at, windowMinutes: settings.windowMinutes, looks: 0 };
}

export function isAwaitingVerification(verification: Verification | undefined): boolean {
  return verification !== undefined && (verification.status === 'awaiting_merge' || verification.status === 'awaiting_deploy' || verification.status === 'watching');
}

/** When the quiet window after the deploy ends (ms), once the deploy is known. */
export function windowEndMs(verification: Verification): number | undefined {
  if (!verification.deployedAt) return undefined;
  return Date.parse(verification.deployedAt) + verification.windowMinutes * 60_000;
}

export type Verdict = { kind: 'wait'; untilMs: number } | { kind: 'verified' } | { kind: 'still_failing'; eventsSince: number };

/**
 * The verdict at `nowMs`, from the family's last event time and its events since the deploy.
 * Quiet until the window's end is verified; any event timed after the deploy is still failing.
 * Events timed before the deploy but read late count as before: the log's time decides.
 */
export function judge(verification: Verification, lastSeen: string | undefined, eventsSince: number, nowMs: number): Verdict {
  const end = windowEndMs(verification);
  if (end === undefined || !verification.deployedAt) return { kind: 'wait', untilMs: nowMs + 60_000 };
  const failing = lastSeen !== undefined && Date.parse(lastSeen) > Date.parse(verification.deployedAt);
  if (nowMs < end) return { kind: 'wait', untilMs: end };
  return failing ? { kind: 'still_failing', eventsSince: Math.max(1, eventsSince) } : { kind: 'verified' };
}

/** Events per hour over the span from the first to the last event (a span under a minute counts as a minute). */
export function ratePerHour(count: number, firstSeen: string, lastSeen: string): number {
  const spanMs = Math.max(60_000, Date.parse(lastSeen) - Date.parse(firstSeen));
  if (!Number.isFinite(spanMs) || count <= 0) return 0;
  return Math.round((count * 3_600_000) / spanMs);
}

/** The family came back: a verified incident that sees an event timed after its deploy. */
export function isRegression(verification: Verification | undefined, lastSeen: string | undefined): boolean {
  if (verification?.status !== 'verified' || !verification.deployedAt || !lastSeen) return false;
  return Date.parse(lastSeen) > Date.parse(verification.deployedAt);
}
