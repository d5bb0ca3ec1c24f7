import { z } from 'zod';
import { intFrom, listFrom, optionalString } from '../env-helpers.js';

const fractionFrom = (fallback: number) =>
  z.preprocess((v) => (v === '' || v === undefined ? fallback : v), z.coerce.number().min(0).max(1));

/**
 * The analysts and the LLM adapter. OPENAI_API_KEY, OPENAI_BASE_URL, MEDIC_LLM and
 * MEDIC_LLM_SCRIPT already live in the schema; the lead merges this shape next to them.
 * Per-step models fall back to MEDIC_MODEL. Token limits of 0 mean unlimited.
 */
export const llmEnv = {
  MEDIC_MODEL: z.string().default('gpt-4o-mini'),
  MEDIC_MODEL_RCA: optionalString,
  MEDIC_MODEL_RECOMMEND: optionalString,
  MEDIC_MODEL_FIX: optionalString,
  /** json_schema (strict structured output) or json_object for servers that ignore schemas. */
  MEDIC_LLM_RESPONSE_FORMAT: z.enum(['json_schema', 'json_object']).default('json_schema'),
  MEDIC_LLM_TIMEOUT_MS: intFrom(60_000, 1_000),
  MEDIC_LLM_MAX_RETRIES: intFrom(3, 0, 10),
  /** A 429/5xx asking to wait longer than this fails at once (the analysis degrades) instead of stalling a job. */
  MEDIC_LLM_MAX_RETRY_WAIT_MS: intFrom(30_000, 0, 600_000),
  MEDIC_LLM_MAX_TOKENS_RCA: intFrom(1_200, 100, 32_000),
  MEDIC_LLM_MAX_TOKENS_RECOMMEND: intFrom(600, 100, 32_000),
  MEDIC_LLM_MAX_TOKENS_FIX: intFrom(4_000, 200, 64_000),
  MEDIC_LLM_TOKENS_PER_INCIDENT: intFrom(60_000, 0),
  MEDIC_LLM_TOKENS_PER_DAY: intFrom(2_000_000, 0),
  /** Token budget of the log window inside the RCA prompt (~4 characters per token). */
  MEDIC_RCA_LOG_TOKENS: intFrom(2_000, 200, 50_000),
  MEDIC_PROMPTS_DIR: optionalString,
  MEDIC_FIX_MIN_CONFIDENCE: fractionFrom(0.5),
  MEDIC_FIX_EXCLUDED_SEVERITIES: listFrom(['info', 'debug']).pipe(z.array(z.enum(['critical', 'error', 'warning', 'info', 'debug']))),
  MEDIC_FIX_MAX_CHANGED_LINES: intFrom(60, 1, 2_000),
  MEDIC_FIX_MAX_FILE_BYTES: intFrom(200_000, 1_000, 5_000_000),
};
