import { z } from 'zod';
import { FixProposal } from '../../domain/fix.js';
import { CHECK_LIMITS } from '../../domain/catalog/parse-catalog-file.js';
import type { CheckProposal } from '../../ports/proposal-checks.js';
import { explicitName, repoPath } from '../arguments/identifiers.js';
import { defineTool, missing, type AnyToolSpec } from './tool-spec.js';

export const CheckProposalArgs = z.strictObject({
  incidentId: explicitName(),
  proposal: FixProposal.extend({ file: repoPath() }),
});

/**
 * The proposal check. READ_ONLY: it writes only a scratch worktree Medic removes afterwards, with
 * no network, and changes nothing on any operator system — so it runs for the pipeline without a
 * human, audited like every call. The command is not an argument: the handler reads it from the
 * service catalog for the incident, so neither a model nor a caller can choose what runs.
 */
export function createCheckTools(checkProposal: CheckProposal | undefined): AnyToolSpec[] {
  return [
    defineTool({
      effect: 'READ_ONLY', permission: 'read', reversible: true,
      name: 'code.check-proposal',
      summary: "Run the service's check command on a proposed fix in an isolated worktree",
      upstream: 'checks',
      // The longest check the catalog allows, plus the worktree's set-up and removal.
      timeoutMs: (CHECK_LIMITS.maxTimeoutS + 60) * 1000,
      schema: CheckProposalArgs,
      identifiers: [['incidentId'], ['proposal', 'file']],
      available: checkProposal !== undefined,
      handler: (args, ctx) => (checkProposal ?? missing('The proposal check'))(args, { signal: ctx.signal }),
    }),
  ];
}
