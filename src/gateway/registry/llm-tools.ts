import { z } from 'zod';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { Llm, LlmResponse } from '../../ports/llm.js';
import { defineTool, missing, type AnyToolSpec } from './tool-spec.js';

/** The model's upstream name: its breaker refuses model calls only (see BreakerOptions.advisory). */
export const LLM_UPSTREAM = 'llm';

/** The model behind the gateway: the answer schemas it may be asked for, by name, and the call's deadline. */
export interface GatedModel {
  llm: Llm;
  /** schemaName → schema; a request naming another schema is refused. */
  answers: Readonly<Record<string, z.ZodType>>;
  /** The whole call, the adapter's own retries and its one repair included. */
  deadlineMs: number;
}

const LlmArgs = z.strictObject({
  step: z.string().regex(/^[a-z][a-z-]{0,31}$/),
  schemaName: z.string().regex(/^[a-z][a-z_]{0,63}$/),
  system: z.string().min(1).max(200_000),
  user: z.string().min(1).max(1_000_000),
  maxTokens: z.number().int().min(1).max(100_000),
});
type LlmArgs = z.infer<typeof LlmArgs>;

/**
 * One structured model answer per call, READ_ONLY (it changes nothing anywhere): through the
 * gateway it gets a deadline that aborts the request, the model's breaker (an outage sends the
 * analysis to the offline analyst without halting approved fixes) and an audit record of every
 * call with its arguments' hash — never the prompt itself.
 */
export function createLlmTools(model?: GatedModel): AnyToolSpec[] {
  return [
    defineTool<LlmArgs, LlmResponse<unknown>>({
      name: 'llm.complete',
      summary: 'Ask the model for one structured answer (root cause, recommendation or fix draft)',
      effect: 'READ_ONLY',
      permission: 'read',
      reversible: true,
      upstream: LLM_UPSTREAM,
      schema: LlmArgs,
      identifiers: [],
      ...(model ? { timeoutMs: model.deadlineMs } : {}),
      available: model !== undefined,
      handler: async (args, ctx) => {
        const { llm, answers } = model ?? missing('The model');
        const schema = answers[args.schemaName];
        if (!schema) throw new MedicError(ErrorCode.ValidationFailed, `No answer schema ${args.schemaName}: the model is asked only for ${Object.keys(answers).join(', ')}.`);
        return llm.complete({ ...args, schema, signal: ctx.signal });
      },
    }),
  ];
}
