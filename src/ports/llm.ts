import type { z } from 'zod';
import type { Checkable } from './service-check.js';

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface LlmRequest<T> {
  /** rca, recommend or fix: picks the model and the token budget. */
  step: string;
  system: string;
  user: string;
  schema: z.ZodType<T>;
  schemaName: string;
  maxTokens: number;
  /** Aborts the call (the gateway's deadline). */
  signal?: AbortSignal;
}

export interface LlmResponse<T> {
  value: T;
  usage: LlmUsage;
  model: string;
}

/** A structured completion: the answer is parsed and validated against the schema, or it throws. */
export interface Llm extends Checkable {
  complete<T>(request: LlmRequest<T>): Promise<LlmResponse<T>>;
}
