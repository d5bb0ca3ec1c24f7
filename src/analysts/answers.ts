/**
 * What the model is asked to return. Strict structured output needs every field required and
 * rejects many constraint keywords, so these schemas are plain; the bounds of the domain types
 * are applied in code afterwards (clamped or cut, never trusted).
 */
import { z } from 'zod';
import { RcaResult, Recommendation, type ActionIntent } from '../domain/analysis.js';
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
  /** `args` is a JSON object as a string: strict output cannot declare a free-form object. */
  actions: z.array(z.object({ tool: z.string(), args: z.string() })).default([]),
});
export type RecommendationAnswer = z.infer<typeof RecommendationAnswer>;

export const FixAnswer = z.object({
  file: z.string().nullable(),
  newContent: z.string().nullable(),
  explanation: z.string(),
});
export type FixAnswer = z.infer<typeof FixAnswer>;

/** Every answer the analysts ask the model for, by the schema name they send (the gateway refuses others). */
export const MODEL_ANSWERS: Readonly<Record<string, z.ZodType>> = { rca_result: RcaAnswer, recommendation: RecommendationAnswer, fix_proposal: FixAnswer };

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

const MAX_ACTIONS = 5;

/**
 * Parses the proposed actions' argument strings. This is only the shape: whether the tool exists
 * and its arguments are acceptable is decided later by the gateway's registry.
 */
export function parseActionIntents(proposed: RecommendationAnswer['actions'] | undefined): { actions: ActionIntent[]; notes: string[] } {
  const actions: ActionIntent[] = [];
  const notes: string[] = [];
  for (const item of proposed ?? []) {
    const tool = cut(item.tool.trim(), 100);
    if (actions.length >= MAX_ACTIONS) {
      notes.push(`Dropped ${tool}: at most ${MAX_ACTIONS} actions are proposed.`);
      continue;
    }
    let args: unknown;
    try {
      args = JSON.parse(item.args);
    } catch {
      args = undefined;
    }
    if (!tool || !args || typeof args !== 'object' || Array.isArray(args)) {
      notes.push(cut(`Dropped ${tool || 'an unnamed action'}: its arguments are not a JSON object.`, 300));
      continue;
    }
    actions.push({ tool, args: args as Record<string, unknown> });
  }
  return { actions, notes: notes.slice(0, 10) };
}

export function toRecommendation(answer: RecommendationAnswer): Recommendation {
  const { actions, notes } = parseActionIntents(answer.actions);
  return Recommendation.parse({
    kind: answer.kind,
    summary: cut(answer.summary.trim() || 'Investigate: the model gave no summary.', 1_000),
    steps: cutAll(answer.steps, 10, 500),
    risk: answer.risk,
    ...(actions.length > 0 ? { actions } : {}),
    ...(notes.length > 0 ? { actionNotes: notes } : {}),
  });
}
