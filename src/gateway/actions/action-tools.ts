import { z } from 'zod';
import type { AutomationClient } from './automation-client.js';
import { refuseSelectorValue, slug } from '../arguments/identifiers.js';
import type { ActionPolicy, ArgSpec } from './policy.js';
import { defineTool, missing, type AnyToolSpec } from '../registry/tool-spec.js';

function enumOf(values: readonly string[]): z.ZodType {
  // Checked at parse too; here again so a policy built in code cannot offer a selector either.
  return z.enum(values as [string, ...string[]]).superRefine((value, ctx) => void refuseSelectorValue(value, ctx));
}

function argSchema(spec: ArgSpec): z.ZodType {
  const base = spec.type === 'slug' ? slug() : spec.type === 'int' ? z.number().int().min(spec.min).max(spec.max) : enumOf(spec.values);
  return spec.optional ? base.optional() : base;
}

/**
 * Turns the validated policy into tool declarations. This happens once, at start, before the
 * registry is frozen: the file is reviewed configuration, not a runtime registration path.
 */
export function createActionTools(actions: readonly ActionPolicy[], automation: AutomationClient | undefined): AnyToolSpec[] {
  return actions.map((action) => {
    const entries = Object.entries(action.args);
    const caps = Object.fromEntries(entries.flatMap(([name, spec]) => (spec.type === 'int' ? [[name, spec.max]] : [])));
    return defineTool<Record<string, unknown>, unknown>({
      name: action.name,
      summary: action.summary,
      effect: action.effect,
      permission: action.permission,
      reversible: action.reversible,
      upstream: 'automation',
      schema: z.strictObject(Object.fromEntries(entries.map(([name, spec]) => [name, argSchema(spec)]))),
      identifiers: entries.filter(([, spec]) => spec.type === 'slug').map(([name]) => [name]),
      caps,
      cacheable: action.effect === 'READ_ONLY',
      target: (args) => String(args[action.target]),
      available: automation !== undefined,
      proposable: true,
      handler: (args, ctx) =>
        (automation ?? missing('The automation endpoint')).run({
          action: action.name,
          webhook: action.webhook,
          args,
          incidentId: ctx.incidentId,
          traceId: ctx.traceId,
          approverId: ctx.approverId,
          signal: ctx.signal,
        }),
    });
  });
}
