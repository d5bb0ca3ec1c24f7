/**
 * What the model is asked to return. Strict structured output needs every field required and
 * rejects many constraint keywords, so these schemas are plain; the bounds of the domain types
 * are applied in code afterwards (clamped or cut, never trusted).
 */
import { z } from 'zod';
import { RcaResult, Recommendation } from '../domain/analysis.js';
import { Severity } from '../domain/event.js';

export const RcaAnswer = z.object({
  rootCause: z.string(),
  contributingFactors: z.array(z.string()),
  evidenceIds: z.array(z.string()),
  impactedComponent: z.string(),
  severity: Severity,
  confidence: z.number(),
  summary: z.string(),
  sequenceOfEvents: z.array(z.string()),
});
export type RcaAnswer = z.infer<typeof RcaAnswer>;

export const RecommendationAnswer = z.object({
  kind: z.enum(['fix', 'mitigate', 'investigate']),
  summary: z.string(),
  steps: z.array(z.string()),
  risk: z.enum(['low', 'medium', 'high']),
});
export type RecommendationAnswer = z.infer<typeof RecommendationAnswer>;

export const FixAnswer = z.object({
  file: z.string().nullable(),
  newContent: z.string().nullable(),
  explanation: z.string(),
});
export type FixAnswer = z.infer<typeof FixAnswer>;

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const cutAll = (items: string[], count: number, max: number) => items.slice(0, count).map((s) => cut(s, max));

export function toRcaResult(answer: RcaAnswer): RcaResult {
  return RcaResult.parse({
    rootCause: cut(answer.rootCause.trim() || 'Undetermined: the model gave no cause.', 2_000),
    contributingFactors: cutAll(answer.contributingFactors, 10, 500),
    evidenceIds: cutAll(answer.evidenceIds, 30, 64),
    impactedComponent: cut(answer.impactedComponent, 200),
    severity: answer.severity,
    confidence: Number.isFinite(answer.confidence) ? Math.min(1, Math.max(0, answer.confidence)) : 0,
    summary: cut(answer.summary, 1_000),
    sequenceOfEvents: cutAll(answer.sequenceOfEvents, 20, 500),
  });
}

export function toRecommendation(answer: RecommendationAnswer): Recommendation {
  return Recommendation.parse({
    kind: answer.kind,
    summary: cut(answer.summary.trim() || 'Investigate: the model gave no summary.', 1_000),
    steps: cutAll(answer.steps, 10, 500),
    risk: answer.risk,
  });
}
