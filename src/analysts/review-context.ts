/**
 * The reviewer's side of a re-run, as the model sees it: the reason a person gave and the
 * proposal (and cause) it replaces, redacted and fenced like every other untrusted text.
 */
import { prepareText } from '../domain/untrusted/prepare.js';
import type { ReviewContext } from '../ports/analyst.js';

export function presentReviewForModel(review: ReviewContext | undefined, nonce: string, maxTokens = 900): string[] {
  if (!review || (!review.reason && !review.previousProposal && !review.previousRootCause)) return [];
  const text = [
    review.reason ? `reason given by the reviewer: ${review.reason}` : 'the reviewer gave no reason',
    review.previousRootCause ? `previous root cause: ${review.previousRootCause}` : '',
    review.previousProposal ? `previous proposal for ${review.previousProposal.file}: ${review.previousProposal.explanation}\n${review.previousProposal.diff}` : '',
  ].filter(Boolean).join('\n');
  return [
    'A person asked for a new analysis. Their reason and the previous answer follow; take the reason into account and do not propose the same change again unless the evidence demands it:',
    prepareText(text, { label: 'review', nonce, maxTokens }).fenced,
  ];
}
