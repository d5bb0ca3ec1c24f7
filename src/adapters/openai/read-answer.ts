/**
 * Reads one chat completion into either a validated value or the reason it is unusable. Refusal,
 * truncation and content filtering are final (asking again gives the same); a parse or schema
 * failure is repairable once by showing the model what was wrong.
 */
import type { z } from 'zod';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { redactSecrets } from '../../domain/untrusted/redact.js';

export interface CompletionLike {
  choices: { finish_reason: string | null; message: { content: string | null; refusal?: string | null } }[];
}

export type Reading<T> = { ok: true; value: T } | { ok: false; repairable: true; content: string; problem: string };

const CODE_FENCE = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i;

export function readAnswer<T>(completion: CompletionLike, schema: z.ZodType<T>, ctx: { step: string; maxTokens: number }): Reading<T> {
  const choice = completion.choices[0];
  if (!choice) throw invalid(`the model returned no choice for step ${ctx.step}`);
  if (choice.message.refusal) {
    throw invalid(`the model refused the ${ctx.step} step ("${redactSecrets(choice.message.refusal).slice(0, 160)}"); the incident needs a human look`);
  }
  if (choice.finish_reason === 'length') {
    throw invalid(`the ${ctx.step} answer was cut at max_tokens=${ctx.maxTokens}; raise MEDIC_LLM_MAX_TOKENS_${ctx.step.toUpperCase()}`);
  }
  if (choice.finish_reason === 'content_filter') {
    throw invalid(`the provider's content filter stopped the ${ctx.step} answer; the incident needs a human look`);
  }
  const content = choice.message.content ?? '';
  // Some local models wrap JSON in a markdown fence even in JSON mode.
  const text = CODE_FENCE.exec(content)?.[1] ?? content;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, repairable: true, content, problem: 'the answer is not valid JSON' };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return { ok: false, repairable: true, content, problem: `the answer does not match the schema (${issues.join('; ')})` };
}

function invalid(reason: string): MedicError {
  return new MedicError(ErrorCode.ModelOutputInvalid, `No usable model answer: ${reason}.`);
}

export function repairInstruction(problem: string): string {
  return `Your previous answer was unusable: ${problem}. Reply again with only the corrected JSON object, every field present.`;
}
