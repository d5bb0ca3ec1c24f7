import { z } from 'zod';
import { FIX_ELIGIBLE_CONFIDENCE } from '../../domain/analysis.js';
import { intFrom, listFrom, optionalString } from '../env-helpers.js';

const fractionFrom = (fallback: number) =>
  z.preprocess((v) => (v === '' || v === undefined ? fallback : v), z.coerce.number().min(0).max(1));

/**
 * The analysts' settings the schema does not hold yet. The model, timeout, retries, response
 * format and token budgets (MEDIC_LLM_MODEL*, MEDIC_LLM_TIMEOUT_MS, MEDIC_LLM_RETRIES,
 * MEDIC_LLM_RESPONSE_FORMAT, MEDIC_TOKEN_BUDGET_*) and MEDIC_FIX_MAX_LINES already live there;
 * src/config/schema.ts spreads this shape next to them.
 */
export const llmEnv = {
  /** A 429/5xx asking to wait longer than this fails at once (the analysis degrades) instead of stalling a job. */
  MEDIC_LLM_MAX_RETRY_WAIT_MS: intFrom(30_000, 0, 600_000),
  MEDIC_LLM_MAX_TOKENS_RCA: intFrom(1_200, 100, 32_000),
  MEDIC_LLM_MAX_TOKENS_RECOMMEND: intFrom(600, 100, 32_000),
  /** The fix answer repeats the whole file, so this also bounds the size of a fixable file. */
  MEDIC_LLM_MAX_TOKENS_FIX: intFrom(4_000, 200, 64_000),
  /** Token budget of the log window inside the RCA prompt (~4 characters per token). */
  MEDIC_RCA_LOG_TOKENS: intFrom(2_000, 200, 50_000),
  MEDIC_PROMPTS_DIR: optionalString,
  MEDIC_FIX_MIN_CONFIDENCE: fractionFrom(FIX_ELIGIBLE_CONFIDENCE),
  MEDIC_FIX_EXCLUDED_SEVERITIES: listFrom(['info', 'debug']).pipe(z.array(z.enum(['critical', 'error', 'warning', 'info', 'debug']))),
  MEDIC_FIX_MAX_FILE_BYTES: intFrom(200_000, 1_000, 5_000_000),
};
