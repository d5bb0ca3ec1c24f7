/**
 * The analyst that asks a model, one call per step: rca (evidence in), recommend (the RCA only)
 * and the fix proposal (candidates in, one validated file out). The model's answers are never
 * trusted as they come: evidence is filtered, confidence capped, fixes validated in code, and
 * every call is checked against the token budget before any token is spent.
 */
import { randomBytes } from 'node:crypto';
import type { AnalysisProvenance } from '../domain/analysis.js';
import { estimateChatTokens } from '../domain/untrusted/tokens.js';
import type { Analyst } from '../ports/analyst.js';
import type { Llm, LlmRequest, LlmResponse } from '../ports/llm.js';
import { FixAnswer, RcaAnswer, RecommendationAnswer, toRcaResult, toRecommendation } from './answers.js';
import { buildFixContext } from './fix-context.js';
import { DEFAULT_FIX_POLICY, fixIneligibility, isUndetermined, type FixPolicy } from './fix-eligibility.js';
import type { Prompt, PromptSet } from './prompts.js';
import { buildRcaContext, DEFAULT_RCA_CONTEXT, type RcaContextBudget } from './rca-context.js';
import { guardRca } from './rca-guards.js';
import { prepareText } from '../domain/untrusted/prepare.js';
import { DEFAULT_FIX_LIMITS, validateFix, type FixLimits } from './validate-fix.js';

/** Checked before each call, charged after it; implemented by the Redis token budget. */
export interface LlmBudget {
  /** Throws a BudgetExhausted MedicError when `estimate` more tokens would cross a limit. */
  reserve(incidentId: string | undefined, estimate: number): Promise<void>;
  record(incidentId: string | undefined, tokens: number): Promise<void>;
}

export interface StepTokens {
  rca: number;
  recommend: number;
  fix: number;
}

export interface LlmAnalystOptions {
  llm: Llm;
  prompts: PromptSet;
  /** Scopes the per-incident budget; create one analyst per analyzed incident. */
  incidentId?: string;
  budget?: LlmBudget;
  maxTokens?: StepTokens;
  fixPolicy?: FixPolicy;
  fixLimits?: FixLimits;
  rcaContext?: RcaContextBudget;
  maxCandidates?: number;
  /** Fresh per call; randomness is a parameter so tests can pin it. */
  nonce?: () => string;
  /**
   * The operational actions the model may propose (from the policy, via the registry), one line
   * each. Without it the model is told there are none, so it cannot invent a tool to propose.
   */
  actionCatalog?: readonly string[];
}

export const DEFAULT_MAX_TOKENS: StepTokens = { rca: 1_200, recommend: 600, fix: 4_000 };

export function createLlmAnalyst(options: LlmAnalystOptions): Analyst {
  const { llm, prompts, budget, incidentId } = options;
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const nonce = options.nonce ?? (() => randomBytes(8).toString('hex'));

  async function call<T>(prompt: Prompt, request: Omit<LlmRequest<T>, 'system' | 'step'>): Promise<{ response: LlmResponse<T>; provenance: AnalysisProvenance }> {
    const full: LlmRequest<T> = { ...request, step: prompt.step, system: prompt.system };
    const estimate = estimateChatTokens([{ content: full.system }, { content: full.user }]) + full.maxTokens;
    await budget?.reserve(incidentId, estimate);
    let response: LlmResponse<T>;
    try {
      response = await llm.complete(full);
    } catch (error) {
      // A failed call may still have been billed; charge the prompt so the budget errs safe.
      await budget?.record(incidentId, estimate - full.maxTokens);
      throw error;
    }
    const tokens = response.usage.promptTokens + response.usage.completionTokens;
    await budget?.record(incidentId, tokens);
    return { response, provenance: { analyst: 'llm', model: response.model, promptVersion: prompt.version, tokens } };
  }

  return {
    name: 'llm',
    async rca(input) {
      const context = buildRcaContext(input, nonce(), options.rcaContext ?? DEFAULT_RCA_CONTEXT);
      const { response, provenance } = await call(prompts.rca, { user: context.user, schema: RcaAnswer, schemaName: 'rca_result', maxTokens: maxTokens.rca });
      const guarded = guardRca(toRcaResult(response.value), { allowedIds: context.allowedIds, logLines: input.logs.entries.length, docIds: context.docIds });
      return { rca: guarded.rca, provenance, context: context.user };
    },
    async recommend(rca) {
      const n = nonce();
      const catalog = options.actionCatalog?.length ? options.actionCatalog.map((line) => `- ${line}`).join('\n') : '(none: leave `actions` empty)';
      const user = `This request's fence nonce is ${n}.\n\nAvailable operational actions:\n${catalog}\n\nRoot-cause analysis:\n\n${prepareText(JSON.stringify(rca, null, 2), { label: 'rca', nonce: n, maxTokens: 1_500 }).fenced}`;
      const { response, provenance } = await call(prompts.recommend, { user, schema: RecommendationAnswer, schemaName: 'recommendation', maxTokens: maxTokens.recommend });
      const recommendation = toRecommendation(response.value);
      // An unknown cause gets an investigation, whatever the model preferred.
      if (isUndetermined(rca) && recommendation.kind === 'fix') recommendation.kind = 'investigate';
      return { recommendation, provenance };
    },
    async proposeFix(input) {
      const skipped: AnalysisProvenance = { analyst: 'llm', promptVersion: prompts.fix.version, tokens: 0 };
      const ineligible = fixIneligibility(input.rca, options.fixPolicy ?? DEFAULT_FIX_POLICY);
      if (ineligible) return { note: ineligible, provenance: skipped };
      if (input.recommendation.kind === 'investigate') return { note: 'No fix proposed: the recommendation is to investigate first.', provenance: skipped };
      const context = buildFixContext(input, nonce(), { maxCandidates: options.maxCandidates ?? 3, answerTokens: maxTokens.fix });
      if (context.shown.length === 0) {
        const why = context.skipped.length > 0 ? `the ${context.skipped.length} candidate file(s) are too large or binary to rewrite in one answer` : 'code search found no candidate file';
        return { note: `No fix proposed: ${why}.`, provenance: skipped };
      }
      const { response, provenance } = await call(prompts.fix, { user: context.user, schema: FixAnswer, schemaName: 'fix_proposal', maxTokens: maxTokens.fix });
      const verdict = validateFix(response.value, context.shown, options.fixLimits ?? DEFAULT_FIX_LIMITS);
      return verdict.ok ? { draft: verdict.draft, provenance } : { note: verdict.reason, provenance };
    },
  };
}
