import { describe, expect, it } from 'vitest';
import { createOfflineAnalyst } from '../../src/analysts/offline-analyst.js';
import { validateFix } from '../../src/analysts/validate-fix.js';
import { hashFixContent } from '../../src/domain/fix.js';
import type { PipelineDeps } from '../../src/pipeline/pipeline-deps.js';
import { fixProposalStep } from '../../src/pipeline/steps/fix-proposal.js';
import { recentChangesStep } from '../../src/pipeline/steps/recent-changes.js';
import type { RevertOutcome } from '../../src/retrieval/find-revert.js';
import type { Analyst, CodeCandidate, DraftFix } from '../../src/ports/analyst.js';
import { buildRcaAnswer, buildRecommendation } from '../analysts/builders.js';
import { buildEvent, buildIncident } from '../support/builders.js';

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

describe('an upstream failure gets no revert of the code that surfaced it', () => {
  const suspect = { sha: 'c0ffee1234567890c0ffee1234567890c0ffee12', author: 'Dana', date: '2026-11-29T10:00:00Z', subject: 'client: retry on 5xx', file: 'src/payments/payment-client.ts', line: 93, ageDays: 1 };
  function recentDeps(findRevert: () => Promise<RevertOutcome>): PipelineDeps {
    return {
      searchCode: async () => [{ file: 'src/payments/payment-client.ts', score: 60, content: CURRENT }],
      findRecentChanges: async () => [],
      findSuspectCommits: async () => [suspect],
      findRevert,
      settings: { windowBeforeMs: 0, windowAfterMs: 0, windowLimit: 1, similarDocs: 0, recentChangesDays: 14 },
      logger: { warn: () => undefined },
    } as unknown as PipelineDeps;
  }
  const revert = async (): Promise<RevertOutcome> => ({ revert: { ...revertOf('src/payments/payment-client.ts'), sha: suspect.sha } });

  it('prepares the revert for a crash in the code, and none for a refused connection logged from it', async () => {
    const crash = buildIncident({ firstEvent: buildEvent({ message: 'request failed: TypeError: boom', raw: 'request failed: TypeError: boom\n    at toAuthorization (/srv/shop/src/payments/payment-client.ts:52:41)' }) });
    expect((await recentChangesStep.run(crash, recentDeps(revert))).patch.revert?.sha).toBe(suspect.sha);

    // Python's requests, as it words a refused connection (urllib3's NewConnectionError).
    const refused = buildIncident({ firstEvent: buildEvent({
      message: "payment call failed: requests.exceptions.ConnectionError: HTTPConnectionPool(host='psp', port=9000): Max retries exceeded with url: /v2 (Caused by NewConnectionError('Failed to establish a new connection: [Errno 111] Connection refused'))",
      raw: 'payment call failed\nTraceback (most recent call last):\n  File "/srv/shop/payments/client.py", line 93, in authorize\n    return session.post(url, json=body)\nrequests.exceptions.ConnectionError: Connection refused',
    }) });
    const out = await recentChangesStep.run(refused, recentDeps(revert));
    expect(out.patch.revert).toBeUndefined();
    expect(out.patch.revertNote).toMatch(/upstream failure/);
    // Its suspects are still recorded, as what the stack touched.
    expect(out.patch.suspectCommits).toHaveLength(1);
  });
});
