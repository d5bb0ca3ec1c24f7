import { z } from 'zod';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { FixProposal, hashFixContent } from '../../domain/fix.js';
import type { FixPublisher, PublishResult, PullRequests } from '../../ports/code.js';
import { explicitName, fixBranch, repoPath } from '../arguments/identifiers.js';
import { defineTool, missing, type AnyToolSpec } from './tool-spec.js';

const PublishArgs = z.strictObject({
  incidentId: explicitName(),
  branch: fixBranch(),
  proposal: FixProposal.extend({ file: repoPath() }),
  message: z.string().min(1).max(4_000),
});
type PublishArgs = z.infer<typeof PublishArgs>;

/** What a fix approval binds to: the incident, the file and the exact content (not the commit message). */
export function fixApprovalKey(incidentId: string, file: string, contentHash: string): unknown {
  return { incidentId, file, contentHash };
}

/**
 * The two writes of the fix flow. Push to the default branch, force-push, branch deletion and
 * merge are not here and cannot be: the branch argument only accepts `fix/…`.
 */
export function createCodeHostTools(deps: { publisher?: FixPublisher; pullRequests?: PullRequests }): AnyToolSpec[] {
  const { publisher, pullRequests } = deps;
  const write = { effect: 'MUTATING', permission: 'approve', reversible: true, upstream: 'code-host', timeoutMs: 120_000 } as const;
  return [
    defineTool<PublishArgs, PublishResult>({
      ...write,
      name: 'git.publish-fix',
      summary: 'Create the fix branch, commit the one approved file, push',
      schema: PublishArgs,
      identifiers: [['incidentId'], ['branch'], ['proposal', 'file']],
      target: (args) => args.incidentId,
      idempotent: true,
      approvalKey: (args) => fixApprovalKey(args.incidentId, args.proposal.file, args.proposal.contentHash),
      // The approval of the fix carries over to opening its PR, but only for the branch actually pushed.
      grants: (args, result) =>
        result.pushStatus === 'pushed' ? { tool: 'github.open-pr', key: { incidentId: args.incidentId, branch: result.branch } } : undefined,
      available: publisher !== undefined,
      handler: async (args, ctx) => {
        // The hash is what the human approved; content that does not match it is not that fix.
        if (hashFixContent(args.proposal.file, args.proposal.after) !== args.proposal.contentHash) {
          throw new MedicError(ErrorCode.FixRefused, 'The fix content does not match its approved hash; nothing was pushed.');
        }
        if (ctx.incidentId !== undefined && ctx.incidentId !== args.incidentId) {
          throw new MedicError(ErrorCode.FixRefused, 'The fix belongs to another incident; nothing was pushed.');
        }
        const { lease } = ctx;
        const admit = lease
          ? async () => {
              // Transient: the holder that wrote owns the fix now, so this one must not end it as failed.
              if (!(await lease.admit())) throw new MedicError(ErrorCode.StaleLease, `Refused push for ${args.incidentId}: this worker's lease (fence ${lease.fence}) was taken over and a later holder has written; nothing was pushed.`, { transient: true });
            }
          : undefined;
        return (publisher ?? missing('The fix publisher')).publish({ ...args, guard: { signal: ctx.signal, ...(admit ? { admit } : {}) } });
      },
    }),
    defineTool({
      ...write,
      name: 'github.open-pr',
      summary: 'Open (or reuse) a draft pull request for a pushed fix branch',
      schema: z.strictObject({ branch: fixBranch(), title: z.string().min(1).max(256), body: z.string().max(60_000), file: repoPath().optional() }),
      identifiers: [['branch']],
      target: (args) => args.branch,
      idempotent: true,
      approvalKey: (args, ctx) => ({ incidentId: ctx.incidentId, branch: args.branch }),
      available: pullRequests !== undefined,
      handler: (args) => (pullRequests ?? missing('The code host')).open(args),
    }),
    defineTool({
      effect: 'READ_ONLY', permission: 'read', reversible: true, upstream: 'code-host',
      name: 'github.checks',
      summary: 'Read the combined state of the check runs on a fix branch',
      schema: z.strictObject({ branch: fixBranch() }),
      identifiers: [['branch']],
      available: pullRequests?.checks !== undefined,
      handler: (args) => {
        const read = pullRequests?.checks?.bind(pullRequests);
        return read ? read(args.branch) : missing('Check runs on the code host');
      },
    }),
    defineTool({
      effect: 'READ_ONLY', permission: 'read', reversible: true, upstream: 'code-host',
      name: 'github.merge-state',
      // Without a code host this fetches the default branch into Medic's clone, under its lock.
      timeoutMs: 120_000,
      summary: 'Read whether a fix branch (or its pull request) was merged into the default branch',
      schema: z.strictObject({ branch: fixBranch(), pullNumber: z.number().int().positive().max(1_000_000_000).optional() }),
      identifiers: [['branch']],
      available: pullRequests?.mergeState !== undefined,
      handler: (args) => {
        const read = pullRequests?.mergeState?.bind(pullRequests);
        return read ? read(args) : missing('Merge state on the code host');
      },
    }),
    defineTool({
      effect: 'READ_ONLY', permission: 'read', reversible: true, upstream: 'code-host',
      name: 'github.deployment',
      // A list, then a bounded number of compares and status reads.
      timeoutMs: 60_000,
      summary: 'Find the first deployment or release containing a merged commit',
      schema: z.strictObject({
        commit: z.string().regex(/^[0-9a-f]{7,40}$/i, 'must be a commit sha'),
        since: z.string().datetime({ offset: true }),
        kind: z.enum(['github-deployment', 'github-release']),
        environment: explicitName().optional(),
      }),
      identifiers: [['environment']],
      available: pullRequests?.deployment !== undefined,
      handler: (args) => {
        const read = pullRequests?.deployment?.bind(pullRequests);
        return read ? read(args.commit, args.since, args.kind, args.environment) : missing('Deploy markers on the code host');
      },
    }),
  ];
}
