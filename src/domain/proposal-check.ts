import { z } from 'zod';
import { redactSecrets } from './untrusted/redact.js';

/**
 * The service's check command run on the proposal in an isolated worktree, before anyone may
 * approve it. `passed` and `not-checked` (the catalog names no command) leave Approve offered;
 * `failed`, `timed-out` and `not-run` (Medic could not run it: the file moved on the default
 * branch, no clone) withhold it. The check is bound to the proposal's content hash: a check of
 * another proposal says nothing about this one.
 */
export const ProposalCheckStatus = z.enum(['passed', 'failed', 'timed-out', 'not-run', 'not-checked']);
export type ProposalCheckStatus = z.infer<typeof ProposalCheckStatus>;

export const MAX_CHECK_OUTPUT = 4_000;

export const ProposalCheck = z.object({
  status: ProposalCheckStatus,
  /** The proposal checked (its `contentHash`). */
  contentHash: z.string(),
  at: z.string(),
  command: z.string().max(500).optional(),
  durationMs: z.number().nonnegative().optional(),
  exitCode: z.number().int().optional(),
  /** The command's first output (stdout and stderr as they came), redacted and bounded. */
  output: z.string().max(MAX_CHECK_OUTPUT + 200).optional(),
  /** How much output was left out after `output`, in bytes. */
  omittedBytes: z.number().int().nonnegative().optional(),
  /** Which isolation applied: `no network (network namespace)`, or why the network stayed open. */
  isolation: z.string().max(200).optional(),
  /** Why the check did not pass or did not run, in a sentence. */
  reason: z.string().max(500).optional(),
});
export type ProposalCheck = z.infer<typeof ProposalCheck>;

const BLOCKING: readonly ProposalCheckStatus[] = ['failed', 'timed-out', 'not-run'];

/**
 * Pure: why this proposal may not be approved because of its check, or undefined when it may. A
 * check of another proposal, or none (a record from before checks, a service without a command),
 * withholds nothing: only a check that ran on exactly these bytes and did not pass does.
 */
export function checkBlocksApproval(proposal: { contentHash: string } | undefined, check: ProposalCheck | undefined): string | undefined {
  if (!proposal || !check || check.contentHash !== proposal.contentHash || !BLOCKING.includes(check.status)) return undefined;
  const what = check.command ? `\`${check.command}\`` : 'The check';
  if (check.status === 'timed-out') return `${what} did not finish in time on this proposal; it cannot be approved. Re-run the analysis or fix the check.`;
  if (check.status === 'not-run') return `The check could not run on this proposal (${check.reason ?? 'unknown reason'}); it cannot be approved until it does.`;
  return `${what} failed on this proposal${check.exitCode === undefined ? '' : ` (exit ${check.exitCode})`}; it cannot be approved.`;
}

/**
 * Pure: a command's captured output as it may be kept — secrets redacted, at most
 * MAX_CHECK_OUTPUT characters, cut at a line end when one is near, and how much was left out.
 */
export function boundCheckOutput(raw: string, droppedBytes: number): { output: string; omittedBytes: number } {
  const redacted = redactSecrets(raw.replace(/\r\n?/g, '\n'));
  if (redacted.length <= MAX_CHECK_OUTPUT) return { output: redacted, omittedBytes: droppedBytes };
  const head = redacted.slice(0, MAX_CHECK_OUTPUT);
  const lineEnd = head.lastIndexOf('\n');
  const kept = lineEnd > MAX_CHECK_OUTPUT / 2 ? head.slice(0, lineEnd) : head;
  return { output: kept, omittedBytes: droppedBytes + new TextEncoder().encode(redacted.slice(kept.length)).length };
}
