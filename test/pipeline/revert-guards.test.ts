import { describe, expect, it } from 'vitest';
import { createOfflineAnalyst } from '../../src/analysts/offline-analyst.js';
import { validateFix } from '../../src/analysts/validate-fix.js';
import { hashFixContent } from '../../src/domain/fix.js';
import type { PipelineDeps } from '../../src/pipeline/pipeline-deps.js';
import { fixProposalStep } from '../../src/pipeline/steps/fix-proposal.js';
import type { Analyst, CodeCandidate, DraftFix } from '../../src/ports/analyst.js';
import { buildRcaAnswer, buildRecommendation } from '../analysts/builders.js';
import { buildIncident } from '../support/builders.js';

const CURRENT = 'export const limit = 1;\n';
const REVERTED = 'export const limit = 10;\n';

function depsWith(candidates: CodeCandidate[], settings: Partial<PipelineDeps['settings']> = {}, analyst: Analyst = createOfflineAnalyst()): PipelineDeps {
  const noop = () => undefined;
  return {
    analystFor: () => analyst,
    searchCode: async () => candidates,
    validateFix: (draft: DraftFix, shown: CodeCandidate[]) => {
      const verdict = validateFix({ file: draft.file, newContent: draft.after, explanation: draft.explanation }, shown);
      return verdict.ok ? verdict.proposal : verdict.reason;
    },
    settings: { windowBeforeMs: 0, windowAfterMs: 0, windowLimit: 1, similarDocs: 0, recentChangesDays: 14, ...settings },
    metrics: { llmCalls: { inc: noop }, llmTokens: { inc: noop } },
  } as unknown as PipelineDeps;
}

const revertOf = (file: string) => ({ sha: 'c0ffee1234567890c0ffee1234567890c0ffee12', subject: 'orders: lower the page limit', author: 'Dana', date: '2026-11-29T10:00:00Z', file, after: REVERTED, ageDays: 1 });
const incidentWith = (file: string) => buildIncident({ rca: buildRcaAnswer({ confidence: 0.3 }), recommendation: buildRecommendation(), revert: revertOf(file) });

describe('a revert proposal passes the same guards as any fix', () => {
  it('becomes a proposal bound to its content hash, below the confidence a model fix needs', async () => {
    const out = await fixProposalStep.run(incidentWith('src/orders/limits.ts'), depsWith([{ file: 'src/orders/limits.ts', score: 60, content: CURRENT }]));
    expect(out.patch.proposal).toMatchObject({ file: 'src/orders/limits.ts', before: CURRENT, after: REVERTED, revertOf: { sha: revertOf('x').sha } });
    expect(out.patch.proposal?.contentHash).toBe(hashFixContent('src/orders/limits.ts', REVERTED));
  });

  it('is refused for a file code search did not offer, for a protected file, or when reverts are off', async () => {
    const notCandidate = await fixProposalStep.run(incidentWith('src/orders/limits.ts'), depsWith([{ file: 'src/orders/other.ts', score: 60, content: CURRENT }]));
    expect(notCandidate.patch.proposal).toBeUndefined();
    expect(notCandidate.patch.proposalNote).toContain('not one of the 1 candidate file(s)');

    const workflow = await fixProposalStep.run(incidentWith('.github/workflows/deploy.yml'), depsWith([{ file: '.github/workflows/deploy.yml', score: 60, content: CURRENT }]));
    expect(workflow.patch.proposal).toBeUndefined();
    expect(workflow.patch.proposalNote).toContain('MEDIC_FIX_ALLOW_PROTECTED');

    const off = await fixProposalStep.run(incidentWith('src/orders/limits.ts'), depsWith([{ file: 'src/orders/limits.ts', score: 60, content: CURRENT }], { revertProposals: false }));
    expect(off.patch.proposal).toBeUndefined();
  });

  it('is refused when undoing it would leave the current file unchanged', async () => {
    const out = await fixProposalStep.run(incidentWith('src/orders/limits.ts'), depsWith([{ file: 'src/orders/limits.ts', score: 60, content: REVERTED }]));
    expect(out.patch.proposal).toBeUndefined();
    expect(out.patch.proposalNote).toContain('does not change the file');
  });
});

describe('with a model, the revert is a fallback, never a second option', () => {
  const modelWith = (draft: DraftFix | undefined): Analyst => ({
    ...createOfflineAnalyst(),
    name: 'llm',
    proposeFix: async () => ({ draft, note: draft ? undefined : 'The model declined.', provenance: { analyst: 'llm', tokens: 10 } }),
  });
  const candidates = [{ file: 'src/orders/limits.ts', score: 60, content: CURRENT }];

  it("proposes the model's valid fix and leaves the revert as evidence", async () => {
    const out = await fixProposalStep.run(incidentWith('src/orders/limits.ts'), depsWith(candidates, {}, modelWith({ file: 'src/orders/limits.ts', after: 'export const limit = 5;\n', explanation: 'Model fix.' })));
    expect(out.patch.proposal).toMatchObject({ after: 'export const limit = 5;\n' });
    expect(out.patch.proposal?.revertOf).toBeUndefined();
  });

  it('proposes the revert when the model declines or its fix is refused', async () => {
    const declined = await fixProposalStep.run(incidentWith('src/orders/limits.ts'), depsWith(candidates, {}, modelWith(undefined)));
    expect(declined.patch.proposal?.revertOf?.sha).toBe(revertOf('x').sha);
    const refused = await fixProposalStep.run(incidentWith('src/orders/limits.ts'), depsWith(candidates, {}, modelWith({ file: 'src/not-a-candidate.ts', after: 'x', explanation: 'Wrong file.' })));
    expect(refused.patch.proposal?.revertOf?.sha).toBe(revertOf('x').sha);
    expect(refused.details?.instead).toContain('not one of the');
  });
});
