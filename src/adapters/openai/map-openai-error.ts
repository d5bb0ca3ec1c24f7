/**
 * Turns what the `openai` client throws (after its own retries) into coded errors that tell the
 * operator what to do. Messages name the endpoint's host, never the key, and are redacted anyway.
 */
import OpenAI from 'openai';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { redactSecrets } from '../../domain/untrusted/redact.js';
import { RETRY_WAIT_HEADER } from './cap-retry-wait.js';

export interface ErrorContext {
  host: string;
  step: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
}

export function mapOpenAiError(error: unknown, ctx: ErrorContext): MedicError {
  if (error instanceof MedicError) return error;
  const at = `${ctx.host} (step ${ctx.step}, model ${ctx.model})`;
  const detail = redactSecrets(error instanceof Error ? error.message : String(error)).slice(0, 200);
  const unavailable = (message: string) => new MedicError(ErrorCode.UpstreamUnavailable, message, { transient: true, cause: error });
  const rejected = (message: string) => new MedicError(ErrorCode.UpstreamRejected, message, { cause: error });

  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return unavailable(`The model endpoint ${at} did not answer within ${ctx.timeoutMs} ms, ${ctx.maxRetries} retries included; check OPENAI_BASE_URL or raise MEDIC_LLM_TIMEOUT_MS.`);
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return unavailable(`The model endpoint ${at} could not be reached after ${ctx.maxRetries} retries (${detail}); check OPENAI_BASE_URL and the network.`);
  }
  const wait = error instanceof OpenAI.APIError ? (error.headers as Headers | undefined)?.get(RETRY_WAIT_HEADER) : undefined;
  if (wait && error instanceof OpenAI.APIError) {
    return unavailable(`The model endpoint ${at} answered ${error.status} and asked to wait ${Math.round(Number(wait) / 1000)} s, over MEDIC_LLM_MAX_RETRY_WAIT_MS; Medic did not wait. Try again later or raise the quota.`);
  }
  if (error instanceof OpenAI.RateLimitError) {
    return unavailable(`The model endpoint ${at} is rate-limiting (429 ${error.code ?? ''}) after ${ctx.maxRetries} retries; wait, raise the quota, or lower MEDIC_TOKEN_BUDGET_DAY.`);
  }
  if (error instanceof OpenAI.AuthenticationError || error instanceof OpenAI.PermissionDeniedError) {
    return rejected(`The model endpoint ${at} refused the credentials (${error.status}); check OPENAI_API_KEY.`);
  }
  if (error instanceof OpenAI.NotFoundError) {
    return rejected(`The model endpoint ${at} does not know this model or path (404); check MEDIC_LLM_MODEL and OPENAI_BASE_URL (it should end in /v1).`);
  }
  if (error instanceof OpenAI.InternalServerError) {
    return unavailable(`The model endpoint ${at} failed with ${error.status} after ${ctx.maxRetries} retries; try again later.`);
  }
  if (error instanceof OpenAI.APIError) {
    return rejected(`The model endpoint ${at} rejected the request (${error.status ?? 'no status'}: ${detail}); check the model's support for MEDIC_LLM_RESPONSE_FORMAT.`);
  }
  if (error instanceof SyntaxError) {
    return unavailable(`The model endpoint ${at} answered with a body that is not JSON; check that OPENAI_BASE_URL points at an OpenAI-compatible API.`);
  }
  return unavailable(`The model call to ${at} failed (${detail}).`);
}
