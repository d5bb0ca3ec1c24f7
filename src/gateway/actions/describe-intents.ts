import type { EffectClass, ToolIntent } from '../registry/effect.js';
import { refuseUnlessProposable } from './model-intents.js';
import type { CappedArg, ToolRegistry } from '../registry/registry.js';

/** How a proposed intent is shown on the card, with what it takes to run. Pure. */
export interface IntentDescription {
  tool: string;
  summary: string;
  effect: EffectClass | 'UNKNOWN';
  reversible: boolean;
  /** Normalized (capped) arguments; the raw ones when invalid. */
  args: unknown;
  argsHash: string;
  target?: string;
  /** auto: READ_ONLY, runs for the pipeline; approval: a Run button for approvers; step-up: two people. */
  requires: 'auto' | 'approval' | 'step-up' | 'refused';
  capped: CappedArg[];
  /** Why it cannot be offered at all (unknown tool, selector, invalid argument, not configured). */
  refusal?: { code: string; reason: string };
}

/**
 * Describes what the model proposed, without running or auditing anything. Only policy actions
 * can be offered; Medic's own tools are refused however well-formed their arguments. The card's
 * presenter renders each with its effect class; the button value carries only `tool` + `argsHash`,
 * and the use-cases look the intent up again server side.
 */
export function describeIntents(registry: ToolRegistry, intents: readonly ToolIntent[]): IntentDescription[] {
  return intents.map((intent) => {
    const tool = String(intent.tool);
    const known = registry.get(tool);
    const notProposable = refuseUnlessProposable(known);
    if (known && notProposable) {
      return { tool, summary: known.summary, effect: known.effect, reversible: known.reversible, args: intent.args, argsHash: registry.normalize(tool, intent.args).argsHash, requires: 'refused', capped: [], refusal: notProposable };
    }
    const normalized = registry.normalize(tool, intent.args);
    if (!normalized.ok) {
      return {
        tool,
        summary: normalized.spec?.summary ?? 'unknown tool',
        effect: normalized.spec?.effect ?? 'UNKNOWN',
        reversible: normalized.spec?.reversible ?? false,
        args: intent.args,
        argsHash: normalized.argsHash,
        requires: 'refused',
        capped: [],
        refusal: { code: normalized.code, reason: normalized.reason },
      };
    }
    const { spec, args, argsHash, capped } = normalized;
    const requires = spec.effect === 'DESTRUCTIVE' ? 'step-up' : spec.effect === 'MUTATING' || capped.length > 0 ? 'approval' : 'auto';
    return {
      tool,
      summary: spec.summary,
      effect: spec.effect,
      reversible: spec.reversible,
      args,
      argsHash,
      target: spec.target?.(args),
      requires: spec.available ? requires : 'refused',
      capped,
      ...(spec.available ? {} : { refusal: { code: 'ERR_TOOL_DENIED', reason: `${spec.name} is not configured here` } }),
    };
  });
}
