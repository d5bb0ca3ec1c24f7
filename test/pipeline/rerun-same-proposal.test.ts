import { describe, expect, it } from 'vitest';
import { createOfflineAnalyst } from '../../src/analysts/offline-analyst.js';
import { validateFix } from '../../src/analysts/validate-fix.js';
import { hashFixContent } from '../../src/domain/fix.js';
import type { PipelineDeps } from '../../src/pipeline/pipeline-deps.js';
import { fixProposalStep } from '../../src/pipeline/steps/fix-proposal.js';
import type { CodeCandidate, DraftFix } from '../../src/ports/analyst.js';
import { buildRcaAnswer, buildRecommendation } from '../analysts/builders.js';
import { buildIncident } from '../support/builders.js';

const FILE = 'src/orders/limits.ts';
const CURRENT = 'export const limit = 1;\n';
const REVERTED = 'export const limit = 10;\n';
const candidates: CodeCandidate[] = [{ file: FILE, score: 60, content: CURRENT }];

function deps(): PipelineDeps {
  const noop = () => undefined;
  return {
    analystFor: () => createOfflineAnalyst(),
    searchCode: async () => candidates,
    validateFix: (draft: DraftFix, shown: CodeCandidate[]) => {
      const verdict = validateFix({ file: draft.file, newContent: draft.after, explanation: draft.explanation }, shown);
      return verdict.ok ? verdict.proposal : verdict.reason;
    },
    settings: { windowBeforeMs: 0, windowAfterMs: 0, windowLimit: 1, similarDocs: 0, recentChangesDays: 14 },
    metrics: { llmCalls: { inc: noop }, llmTokens: { inc: noop } },
  } as unknown as PipelineDeps;
}

const revert = { sha: 'c0ffee1234567890c0ffee1234567890c0ffee12', subject: 'orders: lower the page limit', author: 'Dana', date: '2026-11-29T10:00:00Z', file: FILE, after: REVERTED, ageDays: 1 };
const rerunAfter = (previous: { contentHash: string; verdict?: 'approved' | 'rejected' }) =>
  buildIncident({ rca: buildRcaAnswer({ confidence: 0.3 }), recommendation: buildRecommendation(), revert, review: { reason: 'try again', previousProposal: { file: FILE, diff: '', explanation: '', ...previous }, by: 'U1', at: '2026-11-30T10:00:00Z' } });

describe('a re-run that proposes the same change again', () => {
  const same = hashFixContent(FILE, REVERTED);

  it('says so plainly on the proposal instead of offering a rejected or approved change as new', async () => {
    for (const verdict of ['rejected', 'approved'] as const) {
      const out = await fixProposalStep.run(rerunAfter({ contentHash: same, verdict }), deps());
      // The person who asked for the re-run decides again, told it is the change already decided.
      expect(out.patch.proposal?.contentHash).toBe(same);
      expect(out.patch.proposal?.explanation).toMatch(new RegExp(`^Same change as before \\([0-9a-f]{12}\\), which was ${verdict === 'rejected' ? 'rejected' : 'approved already'}: the re-run found nothing new\\. `));
      expect(out.details).toMatchObject({ proposed: true, sameAsBefore: true, previousVerdict: verdict });
    }
  });

  it('keeps an undecided proposal to decide, marked as the same, and offers a different change as new', async () => {
    const undecided = await fixProposalStep.run(rerunAfter({ contentHash: same }), deps());
    expect(undecided.patch.proposal?.contentHash).toBe(same);
    expect(undecided.details).toMatchObject({ proposed: true, sameAsBefore: true });
    const other = await fixProposalStep.run(rerunAfter({ contentHash: hashFixContent(FILE, 'x'), verdict: 'rejected' }), deps());
    expect(other.patch.proposal?.contentHash).toBe(same);
    expect(other.details?.sameAsBefore).toBeUndefined();
  });
});
