import type { RedisClient } from '../adapters/redis/connect.js';
import { createOpenAiLlm } from '../adapters/openai/openai-llm.js';
import { createTokenBudget } from '../adapters/redis/token-budget.js';
import { loadLlmScript } from '../adapters/scripted-llm/scripted-llm.js';
import { createFallbackAnalyst } from '../analysts/fallback-analyst.js';
import { createLlmAnalyst } from '../analysts/llm-analyst.js';
import { createOfflineAnalyst } from '../analysts/offline-analyst.js';
import { loadPrompts } from '../analysts/prompts.js';
import { DEFAULT_RCA_CONTEXT } from '../analysts/rca-context.js';
import type { Config } from '../config/schema.js';
import { ErrorCode, MedicError } from '../domain/errors.js';
import type { Logger } from '../observability/logger.js';
import type { Analyst } from '../ports/analyst.js';
import type { Llm } from '../ports/llm.js';
import type { Checkable } from '../ports/service-check.js';

/** The configured model (OpenAI-compatible, or scripted answers for drills), or undefined offline. */
export function createModel(config: Config): Llm | undefined {
  const mode = analystModeOf(config);
  if (mode === 'offline') return undefined;
  if (mode === 'scripted') {
    if (!config.MEDIC_LLM_SCRIPT) throw new MedicError(ErrorCode.ConfigInvalid, 'MEDIC_LLM=scripted needs MEDIC_LLM_SCRIPT (a JSON file of scripted answers).');
    return loadLlmScript(config.MEDIC_LLM_SCRIPT);
  }
  if (!config.OPENAI_API_KEY) throw new MedicError(ErrorCode.ConfigInvalid, 'MEDIC_LLM=openai needs OPENAI_API_KEY (any value for servers that ignore it, e.g. Ollama).');
  return createOpenAiLlm({
    apiKey: config.OPENAI_API_KEY,
    baseURL: config.OPENAI_BASE_URL,
    models: { default: config.MEDIC_LLM_MODEL, rca: config.MEDIC_LLM_MODEL_RCA, recommend: config.MEDIC_LLM_MODEL_RECOMMEND, fix: config.MEDIC_LLM_MODEL_FIX },
    timeoutMs: config.MEDIC_LLM_TIMEOUT_MS,
    maxRetries: config.MEDIC_LLM_RETRIES,
    responseFormat: config.MEDIC_LLM_RESPONSE_FORMAT,
    maxRetryWaitMs: config.MEDIC_LLM_MAX_RETRY_WAIT_MS,
  });
}

/**
 * The longest a whole model call may take before the gateway aborts it: each of its two attempts
 * (the answer and one repair) with the client's own retries and their waits.
 */
export function modelDeadlineMs(config: Pick<Config, 'MEDIC_LLM_TIMEOUT_MS' | 'MEDIC_LLM_RETRIES' | 'MEDIC_LLM_MAX_RETRY_WAIT_MS'>): number {
  const attempt = config.MEDIC_LLM_TIMEOUT_MS * (config.MEDIC_LLM_RETRIES + 1) + config.MEDIC_LLM_MAX_RETRY_WAIT_MS * config.MEDIC_LLM_RETRIES;
  return 2 * attempt;
}

/**
 * The analyst per incident: an LLM analyst over `llm` (its calls go through `gate`, the tool
 * gateway, when given) that falls back to the offline analyst when the model fails, or the offline
 * analyst alone when no model is configured.
 */
export function createAnalystFactory({ config, redis, logger, actionCatalog, llm, gate }: { config: Config; redis: RedisClient; logger: Logger; actionCatalog?: readonly string[]; llm?: Llm; gate?: (llm: Llm) => Llm }): { analystFor: (incidentId: string) => Analyst; check: Checkable['check'] } {
  const offline = createOfflineAnalyst();
  if (!llm) {
    const detail = 'no model configured: RCA from the nearest documented family; a fix is proposed only as the clean revert of a recent suspect commit (set OPENAI_API_KEY for model-written fixes)';
    return { analystFor: () => offline, check: async () => ({ name: 'llm', adapter: 'offline analyzer (embedded)', ok: true, detail }) };
  }
  const prompts = loadPrompts(config.MEDIC_PROMPTS_DIR);
  const budget = createTokenBudget(redis, config.MEDIC_REDIS_PREFIX, { perIncident: config.MEDIC_TOKEN_BUDGET_INCIDENT, perDay: config.MEDIC_TOKEN_BUDGET_DAY });
  const onDegrade = (step: string, error: MedicError) => logger.warn({ step, code: error.code, err: error }, 'analysis degraded to the offline analyst');
  const options = {
    llm: gate ? gate(llm) : llm, prompts, budget, actionCatalog,
    maxTokens: { rca: config.MEDIC_LLM_MAX_TOKENS_RCA, recommend: config.MEDIC_LLM_MAX_TOKENS_RECOMMEND, fix: config.MEDIC_LLM_MAX_TOKENS_FIX },
    fixPolicy: { minConfidence: config.MEDIC_FIX_MIN_CONFIDENCE, excludedSeverities: config.MEDIC_FIX_EXCLUDED_SEVERITIES },
    fixLimits: { maxFileBytes: config.MEDIC_FIX_MAX_FILE_BYTES, maxChangedLines: config.MEDIC_FIX_MAX_LINES, allowProtected: config.MEDIC_FIX_ALLOW_PROTECTED, policyFile: config.MEDIC_POLICY_FILE },
    rcaContext: { ...DEFAULT_RCA_CONTEXT, logTokens: config.MEDIC_RCA_LOG_TOKENS },
  };
  return { analystFor: (incidentId) => createFallbackAnalyst(createLlmAnalyst({ ...options, incidentId }), offline, { onDegrade }), check: () => llm.check() };
}

/** Which analyst runs: a model when a key is configured (or MEDIC_LLM says so), else offline. */
export function analystModeOf(config: Pick<Config, 'MEDIC_LLM' | 'OPENAI_API_KEY'>): 'openai' | 'offline' | 'scripted' {
  return config.MEDIC_LLM === 'auto' ? (config.OPENAI_API_KEY ? 'openai' : 'offline') : config.MEDIC_LLM;
}
