/**
 * A scripted `Llm` for tests and fault drills: answers come per step from a JSON-able script
 * (`{ rca: [...], recommend: [...], fix: [...] }`) or a function. Worker processes select it with
 * MEDIC_LLM=scripted and MEDIC_LLM_SCRIPT=<file>. Answers are validated with the request's schema
 * exactly like a real model's, so an invalid scripted answer fails the same way.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { estimateTokens } from '../../domain/untrusted/tokens.js';
import type { Llm, LlmRequest, LlmResponse, LlmUsage } from '../../ports/llm.js';

/** A fault drill in place of an answer: `{ "$fault": "timeout" }`. */
export const ScriptedFault = z.object({
  $fault: z.enum(['timeout', 'rate-limit', 'refusal', 'length', 'content-filter', 'server-error']),
  message: z.string().optional(),
});
export type ScriptedFault = z.infer<typeof ScriptedFault>;

export const LlmScript = z.record(z.string(), z.array(z.unknown()).min(1));
export type LlmScript = z.infer<typeof LlmScript>;
export type LlmScriptFunction = (request: LlmRequest<unknown>, call: number) => unknown;

export interface ScriptedLlm extends Llm {
  /** Total usage over every call, per step. */
  usage(): Record<string, LlmUsage>;
  calls(): LlmRequest<unknown>[];
}

function faultError(fault: ScriptedFault, step: string): MedicError {
  const detail = fault.message ?? fault.$fault;
  switch (fault.$fault) {
    case 'timeout':
    case 'rate-limit':
    case 'server-error':
      return new MedicError(ErrorCode.UpstreamUnavailable, `The scripted model failed the ${step} step (${detail}); this is a fault drill from MEDIC_LLM_SCRIPT.`, { transient: true });
    default:
      return new MedicError(ErrorCode.ModelOutputInvalid, `The scripted model gave no usable ${step} answer (${detail}); this is a fault drill from MEDIC_LLM_SCRIPT.`);
  }
}

export function createScriptedLlm(script: LlmScript | LlmScriptFunction, name = 'scripted'): ScriptedLlm {
  const cursor = new Map<string, number>();
  const totals: Record<string, LlmUsage> = {};
  const seen: LlmRequest<unknown>[] = [];

  function nextAnswer(request: LlmRequest<unknown>): unknown {
    const call = cursor.get(request.step) ?? 0;
    cursor.set(request.step, call + 1);
    if (typeof script === 'function') return script(request, call);
    const answers = script[request.step];
    if (!answers || answers.length === 0) {
      throw new MedicError(ErrorCode.UpstreamUnavailable, `The LLM script has no answers for step "${request.step}"; add a "${request.step}" list to the MEDIC_LLM_SCRIPT file.`);
    }
    // The last answer repeats, so a one-answer script serves every incident a worker sees.
    return answers[Math.min(call, answers.length - 1)];
  }

  return {
    async complete<T>(request: LlmRequest<T>): Promise<LlmResponse<T>> {
      seen.push(request);
      const answer = nextAnswer(request);
      const fault = ScriptedFault.safeParse(answer);
      if (fault.success) throw faultError(fault.data, request.step);
      const usage = { promptTokens: estimateTokens(request.system) + estimateTokens(request.user), completionTokens: estimateTokens(JSON.stringify(answer) ?? '') };
      const total = (totals[request.step] ??= { promptTokens: 0, completionTokens: 0 });
      total.promptTokens += usage.promptTokens;
      total.completionTokens += usage.completionTokens;
      const parsed = request.schema.safeParse(answer);
      if (!parsed.success) {
        const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
        throw new MedicError(ErrorCode.ModelOutputInvalid, `The scripted ${request.step} answer does not match ${request.schemaName} (${issues}); fix the MEDIC_LLM_SCRIPT file.`);
      }
      return { value: parsed.data, usage, model: name };
    },
    async check() {
      return { name: 'llm', adapter: name, ok: true, detail: 'scripted answers, no model is called' };
    },
    usage: () => structuredClone(totals),
    calls: () => [...seen],
  };
}

/** Reads a script file (selected by MEDIC_LLM_SCRIPT); a bad file fails at start with what to fix. */
export function loadLlmScript(file: string): ScriptedLlm {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new MedicError(ErrorCode.ConfigInvalid, `MEDIC_LLM_SCRIPT=${file} could not be read as JSON (${(error as Error).message}); point it at a JSON file like {"rca":[…],"recommend":[…],"fix":[…]}.`);
  }
  const parsed = LlmScript.safeParse(raw);
  if (!parsed.success) {
    throw new MedicError(ErrorCode.ConfigInvalid, `MEDIC_LLM_SCRIPT=${file} must map each step name to a non-empty list of answers, e.g. {"rca":[{…}]}.`);
  }
  return createScriptedLlm(parsed.data, `scripted ${file}`);
}
