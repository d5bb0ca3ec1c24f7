import { describe, expect, it } from 'vitest';
import { createFixProposal } from '../../src/domain/fix.js';
import { buildTimeline } from '../../src/domain/timeline.js';
import type { ProposalCheck } from '../../src/domain/proposal-check.js';
import type { PipelineDeps } from '../../src/pipeline/pipeline-deps.js';
import { proposalCheckStep } from '../../src/pipeline/steps/proposal-check.js';
import type { CheckProposalInput } from '../../src/ports/proposal-checks.js';
import { buildIncident } from '../support/builders.js';

const proposal = createFixProposal({ file: 'src/a.ts', before: 'a\n', after: 'b\n', explanation: 'fix' });
const logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as unknown as PipelineDeps['logger'];

function depsWith(checkProposal?: PipelineDeps['checkProposal']): PipelineDeps {
  return { checkProposal, logger, clock: () => new Date('2026-11-30T10:00:00Z') } as unknown as PipelineDeps;
}

describe('the proposal-check step', () => {
  it('checks the proposal for its incident and keeps the result with the audit details', async () => {
    const asked: CheckProposalInput[] = [];
    const result: ProposalCheck = { status: 'failed', contentHash: proposal.contentHash, at: 'now', command: 'go build ./...', exitCode: 1, durationMs: 812, isolation: 'no network (network namespace)' };
    const output = await proposalCheckStep.run(buildIncident({ proposal }), depsWith(async (input) => (asked.push(input), result)));
    expect(asked).toEqual([{ incidentId: 'inc-test', proposal }]);
    expect(output).toEqual({ patch: { proposalCheck: result }, details: { status: 'failed', command: 'go build ./...', durationMs: 812, isolation: 'no network (network namespace)' } });
    const timeline = buildTimeline([{ at: '2026-11-30T10:00:01.000Z', action: 'step.proposal-check', outcome: 'done', actor: { kind: 'pipeline', id: 'medic' }, incidentId: 'inc-test', details: output.details }]);
    expect(timeline.map((e) => e.text)).toEqual(['Proposal check failed (go build ./..., 0.8 s)']);
  });

  it('says "not checked" when no check is wired, and clears an earlier round\'s check when there is no proposal', async () => {
    expect((await proposalCheckStep.run(buildIncident({ proposal }), depsWith())).patch.proposalCheck).toMatchObject({ status: 'not-checked', contentHash: proposal.contentHash });
    const earlier: ProposalCheck = { status: 'passed', contentHash: proposal.contentHash, at: 'then' };
    expect(await proposalCheckStep.run(buildIncident({ proposalCheck: earlier }), depsWith())).toEqual({ patch: { proposalCheck: undefined }, details: { checked: false } });
    expect(await proposalCheckStep.run(buildIncident(), depsWith())).toEqual({ patch: {} });
  });
});
