import { z } from 'zod';
import { LogBundle, ErrorEvent, Severity } from './event.js';
import { AnalysisProvenance, RcaResult, Recommendation, RecentChange, SimilarDoc, SuspectCommit } from './analysis.js';
import { FixProposal, FixResult, RevertCandidate } from './fix.js';
import { ErrorCode, MedicError } from './errors.js';
import { Regression, Verification } from './verification.js';
import { ProposalCheck } from './proposal-check.js';

export const IncidentState = z.enum([
  'new',
  'analyzing',
  'awaiting_approval', // analysed, a fix is proposed and waits for a human
  'reported', // analysed, nothing to approve (no fix eligible)
  'approved',
  'rejected',
  'fixing',
  'fixed',
  'fix_failed',
  'closed',
]);
export type IncidentState = z.infer<typeof IncidentState>;

/** The only moves an incident can make. Everything else is a coded error. */
const TRANSITIONS: Record<IncidentState, readonly IncidentState[]> = {
  new: ['analyzing', 'closed'],
  analyzing: ['awaiting_approval', 'reported', 'closed'],
  awaiting_approval: ['approved', 'rejected', 'analyzing', 'closed'],
  reported: ['analyzing', 'closed'],
  approved: ['fixing', 'closed'],
  rejected: ['analyzing', 'closed'],
  fixing: ['fixed', 'fix_failed'],
  // still failing after the fix was deployed: back to open, the fix linked
  fixed: ['closed', 'analyzing', 'reported'],
  fix_failed: ['analyzing', 'closed'],
  // a verified fix's family came back (a regression): the same incident reopens
  closed: ['new', 'reported'],
};

export function canTransition(from: IncidentState, to: IncidentState): boolean {
  return TRANSITIONS[from].includes(to);
}

export function assertTransition(from: IncidentState, to: IncidentState): void {
  if (!canTransition(from, to)) {
    throw new MedicError(ErrorCode.InvalidTransition, `An incident cannot go from ${from} to ${to}.`);
  }
}

export const Actor = z.object({
  kind: z.enum(['user', 'pipeline', 'operator']),
  id: z.string().min(1),
  name: z.string().optional(),
});
export type Actor = z.infer<typeof Actor>;

export const ApprovalDecision = z.object({
  verdict: z.enum(['approved', 'rejected']),
  actor: Actor,
  proposalHash: z.string(),
  at: z.string(),
  reason: z.string().max(1_000).optional(),
});
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

export const CardRef = z.object({ channel: z.string(), ts: z.string() });
export type CardRef = z.infer<typeof CardRef>;

/** Where the service catalog routed the incident when its card was first posted (shown on the card). */
export const IncidentRoute = z.object({
  /** The catalog's name for the service (the log's name when unknown). */
  service: z.string(),
  known: z.boolean(),
  channel: z.string(),
  repository: z.string().optional(),
  /** The service's directory in a monorepo ('' or absent: the whole repository). */
  path: z.string().optional(),
  owner: z.string().optional(),
});
export type IncidentRoute = z.infer<typeof IncidentRoute>;

/** Another service's open incident of the same failure (see failure-signature.ts), as it was when linked. */
export const SameFailureLink = z.object({
  incidentId: z.string(),
  service: z.string(),
  title: z.string(),
  card: CardRef.optional(),
  kind: z.enum(['stack', 'family']),
});
export type SameFailureLink = z.infer<typeof SameFailureLink>;

/**
 * A proposed operational action after code validated it against the registry: its effect class,
 * what it takes to run, and what happened when it ran. Refused proposals are not kept as actions,
 * only as notes, so nothing refused is ever offered as runnable.
 */
export const ProposedAction = z.object({
  tool: z.string().max(100),
  summary: z.string().max(300),
  effect: z.enum(['READ_ONLY', 'MUTATING', 'DESTRUCTIVE']),
  requires: z.enum(['auto', 'approval', 'step-up']),
  /** Normalized (capped) arguments; the Run use-case re-resolves the intent from these. */
  args: z.record(z.string(), z.unknown()),
  argsHash: z.string().max(128),
  target: z.string().max(200).optional(),
  capped: z.array(z.string().max(200)).default([]),
  /** The last outcome: automatic for READ_ONLY, an approver's click or a step-up otherwise. */
  outcome: z
    .object({
      status: z.enum(['running', 'executed', 'proposed', 'denied', 'failed']),
      at: z.string(),
      by: z.string().optional(),
      /** Redacted and capped: the automation's answer is untrusted text. */
      output: z.string().max(2_000).optional(),
      reason: z.string().max(500).optional(),
    })
    .optional(),
  /** A pending step-up: the challenge the confirm modal redeems (the token never leaves the server). */
  stepUp: z.object({ challengeId: z.string(), token: z.string(), requestedBy: z.string(), expiresAt: z.number() }).optional(),
});
export type ProposedAction = z.infer<typeof ProposedAction>;

export const Diagnostics = z.object({
  actions: z.array(ProposedAction).max(5),
  notes: z.array(z.string().max(500)).max(15),
});
export type Diagnostics = z.infer<typeof Diagnostics>;

/** What a re-run hands the analyst: the person's reason and the proposal and cause it replaces. */
export const ReviewRequest = z.object({
  reason: z.string().max(1_000).optional(),
  previousRootCause: z.string().max(2_000).optional(),
  /** The proposal the re-run replaces; its hash and verdict tell whether the re-run's is anything new. */
  previousProposal: z.object({ file: z.string(), diff: z.string(), explanation: z.string(), contentHash: z.string().optional(), verdict: z.enum(['approved', 'rejected']).optional() }).optional(),
  by: z.string(),
  at: z.string(),
});
export type ReviewRequest = z.infer<typeof ReviewRequest>;

export const PIPELINE_STEPS = [
  'same-failure',
  'intake',
  'log-window',
  'similar-docs',
  'recent-changes',
  'rca',
  'recommend',
  'diagnostics',
  'fix-proposal',
  'proposal-check',
  'card',
] as const;
export const FIX_STEPS = ['publish', 'pull-request', 'thread-reply'] as const;
export type PipelineStep = (typeof PIPELINE_STEPS)[number];
export type FixStep = (typeof FIX_STEPS)[number];
export type StepName = PipelineStep | FixStep;

export const Incident = z.object({
  id: z.string(),
  fingerprint: z.string(),
  service: z.string(),
  title: z.string(),
  severity: Severity,
  state: IncidentState,
  /** Bumped on every write; writes compare it so two workers never overwrite each other. */
  version: z.number().int().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
  firstEvent: ErrorEvent,
  /** The step checkpoint: a step listed here is done and is never run again for this round. */
  steps: z.record(z.string(), z.object({ at: z.string() })).default({}),
  /** The title as people read it: each variable of the template shown with its most common value (see display-title.ts). */
  displayTitle: z.string().max(500).optional(),
  /** The mined message family (stable group id and its template, which generalizes over time). */
  family: z.object({ groupId: z.string(), template: z.string() }).optional(),
  /** How many times the analysis was (re)started; the fix round restarts the checkpoint. */
  round: z.number().int().nonnegative().default(0),
  logs: LogBundle.optional(),
  similarDocs: z.array(SimilarDoc).optional(),
  recentChanges: z.array(RecentChange).optional(),
  /** The commits that last changed the top in-project frames' lines, most suspect first. */
  suspectCommits: z.array(SuspectCommit).optional(),
  /** The recent suspect commit's change, undone cleanly on the current file; a fix needing no model. */
  revert: RevertCandidate.optional(),
  /** Why no revert was prepared, when a suspect was found. */
  revertNote: z.string().optional(),
  candidates: z.array(z.string()).optional(),
  rca: RcaResult.optional(),
  /** The exact evidence text the analyst was shown, kept for audit. */
  analysisContext: z.string().optional(),
  provenance: z.record(z.string(), AnalysisProvenance).default({}),
  recommendation: Recommendation.optional(),
  /** The recommendation's actions, validated; READ_ONLY ones ran automatically. */
  diagnostics: Diagnostics.optional(),
  proposal: FixProposal.optional(),
  /** Why no fix was proposed, when none was. */
  proposalNote: z.string().optional(),
  /** The service's check command run on the proposal before it was offered (see proposal-check.ts). */
  proposalCheck: ProposalCheck.optional(),
  card: CardRef.optional(),
  route: IncidentRoute.optional(),
  /** Set while Slack refuses or cannot take the card: why, since when, and the operator's next step. */
  cardDelivery: z.object({ error: z.string(), upstreamCode: z.string().optional(), since: z.string(), attempts: z.number().int().nonnegative() }).optional(),
  decision: ApprovalDecision.optional(),
  fix: FixResult.optional(),
  error: z.string().optional(),
  feedback: z
    .array(z.object({ target: z.enum(['rca', 'fix']), vote: z.enum(['up', 'down']), userId: z.string(), at: z.string() }))
    .default([]),
  tokens: z.record(z.string(), z.number().int().nonnegative()).default({}),
  /** Set when this incident is a recurrence: the closed incident of the same family before it. */
  previousIncidentId: z.string().optional(),
  /** Why a person asked for a new analysis (`/medic fix <id> [reason]`), and what it replaces. */
  review: ReviewRequest.optional(),
  /** Fix branches of earlier rounds: a re-run never forgets a branch it pushed. */
  earlierFixes: z.array(FixResult).default([]),
  /** Set when its family was found to be another's: the incident whose card now holds its events. */
  mergedInto: z.string().optional(),
  /** The overflow incident this family was promoted out of, having outgrown an incident opened under the cap. */
  promotedFrom: z.string().optional(),
  /** Incidents whose events this one absorbed when their families merged. */
  mergedFrom: z.array(z.string()).default([]),
  /** Set when another service's incident holds the same failure: its card carries the one fix proposal. */
  sameFailureAs: SameFailureLink.optional(),
  /** Other services' incidents linked to this one as the same failure; this card's fix is theirs too. */
  sameFailures: z.array(z.object({ incidentId: z.string(), service: z.string() })).default([]),
  /**
   * Set when it was closed: `quiet` by the sweep (how long its family had been quiet), `verified`
   * when its merged fix was followed by the service's quiet window (the closed card says which).
   */
  resolution: z.object({ quietMinutes: z.number().int().nonnegative(), kind: z.enum(['quiet', 'verified']).default('quiet') }).optional(),
  /** The watch of a pushed fix: merge, deploy, and whether the family then stayed quiet. */
  verification: Verification.optional(),
  /** Each time the family came back after a verified fix, newest last. */
  regressions: z.array(Regression).default([]),
});
export type Incident = z.infer<typeof Incident>;

/** Counters kept apart from the record, because a storm updates them thousands of times. */
export interface IncidentStats {
  count: number;
  firstSeen: string;
  lastSeen: string;
}

export function isStepDone(incident: Incident, step: StepName): boolean {
  return incident.steps[step] !== undefined;
}

/** Moves the incident, checking the state machine. Pure: returns a new record. */
export function transition(incident: Incident, to: IncidentState, at: string): Incident {
  assertTransition(incident.state, to);
  return { ...incident, state: to, updatedAt: at };
}

export function createIncident(input: {
  id: string;
  fingerprint: string;
  title: string;
  event: ErrorEvent;
  at: string;
}): Incident {
  return {
    id: input.id,
    fingerprint: input.fingerprint,
    service: input.event.service,
    title: input.title,
    severity: input.event.severity,
    state: 'new',
    version: 0,
    createdAt: input.at,
    updatedAt: input.at,
    firstEvent: input.event,
    steps: {},
    round: 0,
    provenance: {},
    feedback: [],
    mergedFrom: [],
    sameFailures: [],
    tokens: {},
    earlierFixes: [],
    regressions: [],
  };
}
