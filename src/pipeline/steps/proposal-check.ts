import type { Step } from '../step.js';

/**
 * The proposal is checked before anyone may approve it: the service's check command (from the
 * service catalog) runs on the proposed change in an isolated worktree, offline and bounded, and
 * its result is kept with the proposal's hash. A proposal that fails is shown with its failure and
 * without Approve (the approve use-case refuses it too). No proposal, nothing to check: an earlier
 * round's result is cleared.
 */
export const proposalCheckStep: Step = {
  name: 'proposal-check',
  async run(incident, deps) {
    const proposal = incident.proposal;
    if (!proposal) return incident.proposalCheck ? { patch: { proposalCheck: undefined }, details: { checked: false } } : { patch: {} };
    const check = deps.checkProposal
      ? await deps.checkProposal({ incidentId: incident.id, proposal })
      : { status: 'not-checked' as const, contentHash: proposal.contentHash, at: deps.clock().toISOString(), reason: 'no proposal check is wired' };
    deps.logger.info({ incidentId: incident.id, status: check.status, command: check.command, durationMs: check.durationMs, isolation: check.isolation }, 'proposal check');
    return {
      patch: { proposalCheck: check },
      details: { status: check.status, ...(check.command ? { command: check.command } : {}), ...(check.durationMs !== undefined ? { durationMs: check.durationMs } : {}), ...(check.isolation ? { isolation: check.isolation } : {}) },
    };
  },
};
