import type { FixProposal } from '../../domain/fix.js';
import type { Approval, ApprovalStore } from './approval-store.js';
import { fixApprovalKey } from '../registry/code-host-tools.js';
import { hashArgs } from '../registry/registry.js';

/** The approval hash of a fix: incident + file + content hash, whatever branch or message the job picks. */
export function fixApprovalHash(incidentId: string, proposal: Pick<FixProposal, 'file' | 'contentHash'>): string {
  return hashArgs(fixApprovalKey(incidentId, proposal.file, proposal.contentHash));
}

/**
 * Called by the approve use-case once it has verified the approver and the proposal hash: from
 * then on the apply-fix job's `git.publish-fix` passes the gate, and its success authorizes the
 * PR for the branch it pushed.
 */
export function recordFixApproval(approvals: ApprovalStore, input: { incidentId: string; proposal: Pick<FixProposal, 'file' | 'contentHash'>; approverId: string }): Promise<Approval> {
  return approvals.recordApproval({
    tool: 'git.publish-fix',
    argsHash: fixApprovalHash(input.incidentId, input.proposal),
    incidentId: input.incidentId,
    approverId: input.approverId,
  });
}
