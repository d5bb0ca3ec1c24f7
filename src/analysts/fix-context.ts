/**
 * Builds what the fix model is shown: the RCA and recommendation (model text derived from
 * untrusted logs, so fenced again) and the candidate files small enough to be rewritten whole
 * within the answer's token limit.
 */
import type { RcaResult, Recommendation } from '../domain/analysis.js';
import { prepareText } from '../domain/untrusted/prepare.js';
import { estimateTokens } from '../domain/untrusted/tokens.js';
import type { CodeCandidate, ReviewContext } from '../ports/analyst.js';
import { presentReviewForModel } from './review-context.js';
import { looksBinary } from './validate-fix.js';

export interface FixContext {
  user: string;
  shown: CodeCandidate[];
  skipped: string[];
}

export function buildFixContext(
  input: { rca: RcaResult; recommendation: Recommendation; candidates: CodeCandidate[]; review?: ReviewContext | undefined },
  nonce: string,
  limits: { maxCandidates: number; answerTokens: number },
): FixContext {
  const shown: CodeCandidate[] = [];
  const skipped: string[] = [];
  // The answer repeats the whole file, so a file over ~80% of the answer limit cannot come back whole.
  for (const candidate of [...input.candidates].sort((a, b) => b.score - a.score)) {
    if (shown.length >= limits.maxCandidates) break;
    if (looksBinary(candidate.content) || estimateTokens(candidate.content) > limits.answerTokens * 0.8) skipped.push(candidate.file);
    else shown.push(candidate);
  }
  const analysis = [
    `rootCause: ${input.rca.rootCause}`,
    `impactedComponent: ${input.rca.impactedComponent}`,
    `confidence: ${input.rca.confidence}`,
    `contributingFactors: ${input.rca.contributingFactors.join(' | ')}`,
    `recommendation (${input.recommendation.kind}): ${input.recommendation.summary}`,
    ...input.recommendation.steps.map((s, i) => `  ${i + 1}. ${s}`),
  ].join('\n');
  const files = shown.map((c) => {
    // The path is printed outside the fence too: it is the exact string the answer must return.
    const body = prepareText(c.content, { label: 'file', nonce, maxTokens: limits.answerTokens });
    return `Candidate file path: ${JSON.stringify(c.file)} (search score ${c.score.toFixed(2)})\n${body.fenced}`;
  });
  const user = [
    `This request's fence nonce is ${nonce}.`,
    'Analysis:',
    prepareText(analysis, { label: 'analysis', nonce, maxTokens: 800 }).fenced,
    ...presentReviewForModel(input.review, nonce, 1_500),
    `Candidate files (${shown.length}):`,
    ...files,
  ].join('\n\n');
  return { user, shown, skipped };
}
