import type { FixProposal } from '../domain/fix.js';
import type { ProposalCheck } from '../domain/proposal-check.js';

export interface CheckProposalInput {
  incidentId: string;
  proposal: FixProposal;
}

/**
 * Runs the check command the service catalog names for the incident's service on the proposal,
 * isolated from Medic's clone; a service without one answers `not-checked`. The command comes
 * from the catalog, never from the caller, so no model output can choose what runs.
 */
export type CheckProposal = (input: CheckProposalInput, options?: { signal?: AbortSignal }) => Promise<ProposalCheck>;
