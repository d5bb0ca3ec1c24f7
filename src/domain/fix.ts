import { createTwoFilesPatch } from 'diff';
import { z } from 'zod';
import { sha256 } from './hash.js';

/** A one-file change the analyst proposes. `contentHash` is what an approval binds to. */
export const FixProposal = z.object({
  file: z.string().min(1).max(512),
  before: z.string(),
  after: z.string(),
  diff: z.string(),
  explanation: z.string().max(2_000),
  /** sha256 of the file's content when the proposal was made; a changed file refuses the fix. */
  baseHash: z.string(),
  /** sha256 over (file, after): approving binds to exactly this content. */
  contentHash: z.string(),
  /** Set when the proposal reverts a suspect commit's change to this file. */
  revertOf: z.object({ sha: z.string(), subject: z.string(), author: z.string(), date: z.string() }).optional(),
});
export type FixProposal = z.infer<typeof FixProposal>;

/** Lines `start`–`end` of a file, 1-based and inclusive. */
export const LineSpan = z.object({ start: z.number().int().positive(), end: z.number().int().positive() });
export type LineSpan = z.infer<typeof LineSpan>;

/** `line 41`, `lines 23–25`. */
export function lineWords(span: LineSpan): string {
  return span.start === span.end ? `line ${span.start}` : `lines ${span.start}–${span.end}`;
}

/** A suspect commit's change to one file, undone on the file as it is now: a fix needing no model. */
export const RevertCandidate = z.object({
  sha: z.string(),
  subject: z.string().max(300),
  author: z.string(),
  date: z.string(),
  file: z.string().min(1).max(512),
  /** The file with the commit's change undone. */
  after: z.string(),
  ageDays: z.number(),
  /** The other files the reverted commit changed, which the revert leaves as they are. */
  otherFiles: z.array(z.string()).optional(),
  /** The lines of the current file the revert changes (1-based, inclusive): the commit's hunks around the failing lines. */
  lines: z.array(LineSpan).optional(),
  /** The commit's other hunks in this file, which the revert leaves in place: their current lines, or the commit's when changed since. */
  keptHunks: z.array(LineSpan).optional(),
});
export type RevertCandidate = z.infer<typeof RevertCandidate>;

export const PushStatus = z.enum(['pushed', 'failed', 'skipped']);

export const FixResult = z.object({
  branch: z.string(),
  commit: z.string(),
  pushStatus: PushStatus,
  pushError: z.string().optional(),
  /** `reviewers`: the code owners of the changed file a review was requested from (CODEOWNERS). */
  pullRequest: z.object({ number: z.number().int(), url: z.string(), reviewers: z.array(z.string()).optional() }).optional(),
  checks: z.enum(['pending', 'success', 'failure']).optional(),
});
export type FixResult = z.infer<typeof FixResult>;

export function hashFixContent(file: string, after: string): string {
  return sha256(`${file}\u0000${after}`);
}

/** Builds a proposal from the before/after pair, computing the diff and both hashes. */
export function createFixProposal(input: { file: string; before: string; after: string; explanation: string; revertOf?: FixProposal['revertOf'] }): FixProposal {
  return {
    ...input,
    diff: createTwoFilesPatch(`a/${input.file}`, `b/${input.file}`, input.before, input.after, '', '', { context: 3 }),
    baseHash: sha256(input.before),
    contentHash: hashFixContent(input.file, input.after),
  };
}

/** `fix/<incident>-<yyyymmddhhmmss>` from the approval time, so a retried job names the same branch. */
export function fixBranchName(incidentId: string, approvedAt: string): string {
  const stamp = approvedAt.replace(/[-:T]/g, '').slice(0, 14);
  return `fix/${incidentId}-${stamp}`;
}
