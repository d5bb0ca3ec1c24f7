import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { ErrorEvent } from './event.js';
import { ErrorCode, MedicError } from './errors.js';
import { eventTrace } from './event-trace.js';
import type { MinedTemplate } from './templates/template-miner.js';

const Name = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be a lowercase slug (a-z, 0-9, . _ -), at most 64 characters');
const Text = z.string().min(1, 'must not be empty').max(500);

const Match = z.strictObject({
  /** The service, exactly. */
  service: Text.optional(),
  /** Text the message's first line contains (case-sensitive; plain text, not a pattern). */
  message: Text.optional(),
  /** The exception type, exactly (`TypeError`, `java.io.IOException`). */
  exception: Text.optional(),
  /** Text one of the top in-app frames (`file#function`) contains. */
  frame: Text.optional(),
});

const Rule = z
  .strictObject({
    name: Name,
    match: Match,
    /** Every matching event joins this one family, whatever the miner says. */
    family: Name.optional(),
    /** Matching events are split by the value of this event field (or correlation id). */
    split_by: z.string().regex(/^[A-Za-z_][\w.-]{0,63}$/, 'must be a field name').optional(),
  })
  .superRefine((rule, ctx) => {
    if (Object.values(rule.match).every((v) => v === undefined)) ctx.addIssue({ code: 'custom', path: ['match'], message: 'needs at least one of service, message, exception, frame' });
    if ((rule.family === undefined) === (rule.split_by === undefined)) ctx.addIssue({ code: 'custom', path: [], message: 'needs exactly one of family or split_by' });
  });
export type GroupingRule = z.infer<typeof Rule>;

const RulesFile = z.strictObject({ version: z.literal(1), rules: z.array(Rule).max(500) }).superRefine((file, ctx) => {
  const seen = new Set<string>();
  file.rules.forEach((rule, i) => {
    if (seen.has(rule.name)) ctx.addIssue({ code: 'custom', path: ['rules', i, 'name'], message: `"${rule.name}" is used by an earlier rule` });
    seen.add(rule.name);
  });
});

const TOP_FRAMES = 3;

/** Pure: validates the grouping rules text, listing every problem with its place, or returns the rules. */
export function parseGroupingRules(text: string, source: string): GroupingRule[] {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new MedicError(ErrorCode.ConfigInvalid, `${source} is not valid YAML: ${(error as Error).message.split('\n')[0] ?? ''}`);
  }
  const parsed = RulesFile.safeParse(raw ?? { version: 1, rules: [] });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  - ${issue.path.join('.') || '(file)'}: ${issue.message}`);
    throw new MedicError(ErrorCode.ConfigInvalid, `${source} is invalid; fix these entries (see MEDIC_GROUPING_FILE):\n${lines.join('\n')}`);
  }
  return parsed.data.rules;
}

/**
 * The family an event belongs to under the operator's rules: the first matching rule decides (a
 * fixed family, or the mined one split by a field's value); no match leaves the mined family.
 */
export function applyGroupingRules(rules: readonly GroupingRule[], event: ErrorEvent, mined: MinedTemplate): MinedTemplate {
  if (rules.length === 0) return mined;
  const firstLine = event.message.split('\n', 1)[0] ?? '';
  let trace: ReturnType<typeof eventTrace> | undefined;
  const traceOf = () => (trace ??= eventTrace(event));
  for (const rule of rules) {
    const { service, message, exception, frame } = rule.match;
    if (service !== undefined && event.service !== service) continue;
    if (message !== undefined && !firstLine.includes(message)) continue;
    if (exception !== undefined && traceOf().exceptionType !== exception) continue;
    if (frame !== undefined && !traceOf().frames.filter((f) => f.inApp).slice(0, TOP_FRAMES).some((f) => `${f.file}#${f.fn ?? ''}`.includes(frame))) continue;
    if (rule.family !== undefined) return { groupId: `rule.${rule.family}`, template: mined.template };
    const field = rule.split_by as string;
    const value = event.fields[field] ?? event.correlationIds[field] ?? '';
    return { groupId: `${mined.groupId}~${rule.name}=${value.slice(0, 128)}`, template: `${mined.template} [${field}=${value.slice(0, 128)}]` };
  }
  return mined;
}
