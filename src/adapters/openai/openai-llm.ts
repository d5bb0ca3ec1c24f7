/**
 * The `Llm` port over the `openai` client, for OpenAI and any compatible endpoint (Azure OpenAI,
 * Ollama, vLLM) chosen by OPENAI_BASE_URL. Structured output by strict json_schema, or JSON mode
 * plus our own validation for servers without it; one repair attempt; temperature 0; explicit
 * max_tokens; the client's retries honour retry-after / retry-after-ms with exponential backoff.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { Llm, LlmRequest, LlmResponse, LlmUsage } from '../../ports/llm.js';
import { createCappedRetryFetch } from './cap-retry-wait.js';
import { mapOpenAiError } from './map-openai-error.js';
import { readAnswer, repairInstruction } from './read-answer.js';
import { redactKnownSecrets } from '../../domain/untrusted/known-secrets.js';

export type ResponseFormatMode = 'json_schema' | 'json_object';

export interface OpenAiLlmOptions {
  apiKey: string;
  baseURL?: string;
  /** `default` plus optional per-step overrides (rca, recommend, fix). */
  models: { default: string } & Record<string, string | undefined>;
  timeoutMs: number;
  maxRetries: number;
  responseFormat: ResponseFormatMode;
  /** A server asking to wait longer than this fails the call at once instead of stalling the job. */
  maxRetryWaitMs?: number;
}

function hostOf(baseURL: string | undefined): string {
  try {
    return new URL(baseURL ?? 'https://api.openai.com/v1').host;
  } catch {
    return 'the configured endpoint';
  }
}

export function createOpenAiLlm(options: OpenAiLlmOptions): Llm {
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL ?? 'https://api.openai.com/v1',
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
    fetch: createCappedRetryFetch(options.maxRetryWaitMs ?? 30_000),
  });
  const host = hostOf(options.baseURL);
  // Learned once per process: a server that rejects json_schema gets JSON mode from then on.
  let mode: ResponseFormatMode = options.responseFormat;

  async function send<T>(request: LlmRequest<T>, model: string, messages: ChatCompletionMessageParam[]) {
    const params = (format: ResponseFormatMode): ChatCompletionCreateParamsNonStreaming => ({
      model,
      messages: format === 'json_object' ? withSchemaHint(messages, request) : messages,
      temperature: 0,
      max_tokens: request.maxTokens,
      response_format: format === 'json_schema' ? zodResponseFormat(request.schema, request.schemaName) : { type: 'json_object' },
    });
    try {
      return await client.chat.completions.create(params(mode), request.signal ? { signal: request.signal } : undefined);
    } catch (error) {
      if (mode === 'json_schema' && error instanceof OpenAI.BadRequestError && /response_format|json_schema/i.test(error.message)) {
        mode = 'json_object';
        return client.chat.completions.create(params(mode), request.signal ? { signal: request.signal } : undefined);
      }
      throw error;
    }
  }

  return {
    async complete<T>(request: LlmRequest<T>): Promise<LlmResponse<T>> {
      const model = options.models[request.step] ?? options.models.default;
      const ctx = { host, step: request.step, model, timeoutMs: options.timeoutMs, maxRetries: options.maxRetries };
      const usage: LlmUsage = { promptTokens: 0, completionTokens: 0 };
      const messages: ChatCompletionMessageParam[] = [
        // Sections are redacted as they are built; Medic's own secrets are caught here too, by value.
        { role: 'system', content: redactKnownSecrets(request.system) },
        { role: 'user', content: redactKnownSecrets(request.user) },
      ];
      try {
        for (let attempt = 0; attempt < 2; attempt++) {
          const completion = await send(request, model, messages);
          usage.promptTokens += completion.usage?.prompt_tokens ?? 0;
          usage.completionTokens += completion.usage?.completion_tokens ?? 0;
          const reading = readAnswer(completion, request.schema, { step: request.step, maxTokens: request.maxTokens });
          if (reading.ok) return { value: reading.value, usage, model: completion.model || model };
          if (attempt === 1) {
            throw new MedicError(ErrorCode.ModelOutputInvalid, `No usable model answer for step ${request.step} after one repair: ${reading.problem}; try a stronger model (MEDIC_LLM_MODEL_${request.step.toUpperCase()}).`);
          }
          messages.push({ role: 'assistant', content: reading.content.slice(0, 8_000) }, { role: 'user', content: repairInstruction(reading.problem) });
        }
        throw new MedicError(ErrorCode.Internal, 'unreachable: the repair loop ended without an answer');
      } catch (error) {
        throw mapOpenAiError(error, ctx);
      }
    },
    async check() {
      const adapter = `openai ${host}`;
      try {
        await client.models.list({ timeout: Math.min(options.timeoutMs, 5_000), maxRetries: 0 });
        return { name: 'llm', adapter, ok: true, detail: `reachable; model ${options.models.default}, ${mode} output` };
      } catch (error) {
        return { name: 'llm', adapter, ok: false, detail: mapOpenAiError(error, { host, step: 'check', model: options.models.default, timeoutMs: 5_000, maxRetries: 0 }).message };
      }
    },
  };
}

/** JSON mode needs the word JSON in the prompt and gets no schema from the API: show it. */
function withSchemaHint<T>(messages: ChatCompletionMessageParam[], request: LlmRequest<T>): ChatCompletionMessageParam[] {
  const schema = JSON.stringify(z.toJSONSchema(request.schema));
  const [system, ...rest] = messages;
  const content = `${typeof system?.content === 'string' ? system.content : ''}\n\nReply with a JSON object matching this JSON Schema (${request.schemaName}):\n${schema}`;
  return [{ role: 'system', content }, ...rest];
}
