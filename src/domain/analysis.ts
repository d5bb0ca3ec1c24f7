import { z } from 'zod';
import { Severity } from './event.js';

/** A documented error family, runbook or postmortem section held in the vector store. */
export const ErrorDoc = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  source: z.string(),
  service: z.string().optional(),
  errorCode: z.string().optional(),
});
export type ErrorDoc = z.infer<typeof ErrorDoc>;

export const SimilarDoc = z.object({
  id: z.string(),
  title: z.string(),
  excerpt: z.string(),
  source: z.string(),
  /** Cosine similarity clamped to [0, 1]; approximate by nature. */
  similarity: z.number().min(0).max(1),
});
export type SimilarDoc = z.infer<typeof SimilarDoc>;

export const RecentChange = z.object({
  sha: z.string(),
  author: z.string(),
  date: z.string(),
  subject: z.string(),
  files: z.array(z.string()),
});
export type RecentChange = z.infer<typeof RecentChange>;

/**
 * The commit that last changed a stack frame's line (or its function), found by `git blame`
 * following renames: Sentry's "suspect commit". Commit text is untrusted, like log lines.
 */
export const SuspectCommit = z.object({
  sha: z.string(),
  author: z.string(),
  /** Author date, ISO 8601. */
  date: z.string(),
  subject: z.string(),
  /** The file as it is now, and the frame line blamed in it. */
  file: z.string(),
  line: z.number().int().positive(),
  function: z.string().optional(),
  /** The file's path in that commit, when it was renamed since. */
  pathAtCommit: z.string().optional(),
  /** Days between the commit and the family's first event. */
  ageDays: z.number(),
});
export type SuspectCommit = z.infer<typeof SuspectCommit>;

/** What the analyst returns. Evidence ids are filtered to those it was shown, in code. */
export const RcaResult = z.object({
  rootCause: z.string().min(1).max(2_000),
  contributingFactors: z.array(z.string().max(500)).max(10),
  evidenceIds: z.array(z.string().max(64)).max(30),
  impactedComponent: z.string().max(200),
  severity: Severity,
  confidence: z.number().min(0).max(1),
  summary: z.string().max(1_000),
  sequenceOfEvents: z.array(z.string().max(500)).max(20),
});
export type RcaResult = z.infer<typeof RcaResult>;

/**
 * An operational action the model proposes (a tool of the policy and its arguments). A proposal
 * only: code validates it against the gateway's registry and nothing runs without the gate.
 */
export const ActionIntent = z.object({ tool: z.string().min(1).max(100), args: z.record(z.string(), z.unknown()) });
export type ActionIntent = z.infer<typeof ActionIntent>;

export const Recommendation = z.object({
  kind: z.enum(['fix', 'mitigate', 'investigate']),
  summary: z.string().min(1).max(1_000),
  steps: z.array(z.string().max(500)).max(10),
  risk: z.enum(['low', 'medium', 'high']),
  /** Absent on records written before actions existed, and when the analyst proposes none. */
  actions: z.array(ActionIntent).max(5).optional(),
  /** Why proposed actions were dropped before validation (unparsable arguments, too many). */
  actionNotes: z.array(z.string().max(300)).max(10).optional(),
});
export type Recommendation = z.infer<typeof Recommendation>;

/** Where the analysis came from, stored with every result. */
export const AnalysisProvenance = z.object({
  analyst: z.string(),
  model: z.string().optional(),
  promptVersion: z.string().optional(),
  tokens: z.number().int().nonnegative().default(0),
});
export type AnalysisProvenance = z.infer<typeof AnalysisProvenance>;

/** The default floor (MEDIC_FIX_MIN_CONFIDENCE) below which no fix is proposed; the offline analyzer stays under it. */
export const FIX_ELIGIBLE_CONFIDENCE = 0.5;
