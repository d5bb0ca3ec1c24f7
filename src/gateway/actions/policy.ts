import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { EFFECT_CLASSES, MINIMUM_PERMISSION, PERMISSIONS, permissionAtLeast } from '../registry/effect.js';
import { isSelectorWord } from '../arguments/identifiers.js';

/**
 * The operator's runbook actions, declared in `data/policy/actions.yaml` and validated once at
 * start. The argument language is deliberately tiny (slug, bounded int, enum): anything richer
 * would let a policy file smuggle a selector past the identifier rules.
 */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const ArgSpec = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('slug'), optional: z.boolean().default(false) }),
  z
    .strictObject({ type: z.literal('int'), min: z.number().int(), max: z.number().int(), optional: z.boolean().default(false) })
    .refine((a) => a.min <= a.max, 'min must not exceed max'),
  z.strictObject({
    type: z.literal('enum'),
    // `all`, `any`, `every`… would let one intent select everything the automation knows.
    values: z.array(z.string().regex(SLUG, 'enum values are slugs').refine((v) => !isSelectorWord(v), 'an enum value must name one thing, not a selector such as "all"')).min(1).max(20),
    optional: z.boolean().default(false),
  }),
]);
export type ArgSpec = z.infer<typeof ArgSpec>;

const Webhook = z.string().refine((v) => v.startsWith('/') || /^https?:\/\/[^\s]+$/.test(v), 'a path (/hooks/…) under MEDIC_AUTOMATION_URL, or an http(s) URL');

export const ActionPolicy = z
  .strictObject({
    name: z.string().regex(/^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/, 'group.action, lowercase (e.g. deploy.restart-service)'),
    summary: z.string().min(1).max(200),
    effect: z.enum(EFFECT_CLASSES as [string, ...string[]]).transform((v) => v as (typeof EFFECT_CLASSES)[number]),
    permission: z.enum(PERMISSIONS),
    reversible: z.boolean(),
    webhook: Webhook,
    /** The argument naming the one thing the action touches (locks and step-up use it). */
    target: z.string(),
    args: z.record(z.string().regex(/^[a-z][a-zA-Z0-9]*$/, 'argument names are camelCase'), ArgSpec),
  })
  .superRefine((action, ctx) => {
    if (!permissionAtLeast(action.permission, MINIMUM_PERMISSION[action.effect])) {
      ctx.addIssue({ code: 'custom', path: ['permission'], message: `${action.effect} actions need at least "${MINIMUM_PERMISSION[action.effect]}"` });
    }
    const target = action.args[action.target];
    if (!target || target.type !== 'slug' || target.optional) {
      ctx.addIssue({ code: 'custom', path: ['target'], message: 'must name a required slug argument' });
    }
    if (Object.keys(action.args).length > 10) ctx.addIssue({ code: 'custom', path: ['args'], message: 'at most 10 arguments' });
  });
export type ActionPolicy = z.infer<typeof ActionPolicy>;

export const PolicyFile = z.strictObject({
  version: z.literal(1),
  actions: z.array(ActionPolicy).max(50),
});

/** Names that must never become tools, whatever a policy file says. */
export const FORBIDDEN_TOOLS = ['git.push-default-branch', 'git.force-push', 'git.delete-branch', 'github.merge-pr', 'git.push', 'git.merge'] as const;

/** Pure: validates policy text, listing every problem with its place, or returns the actions. */
export function parsePolicy(text: string, source: string): ActionPolicy[] {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new MedicError(ErrorCode.ConfigInvalid, `${source} is not valid YAML: ${(error as Error).message.split('\n')[0] ?? ''}`);
  }
  const parsed = PolicyFile.safeParse(raw ?? {});
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  - ${issue.path.join('.') || '(file)'}: ${issue.message}`);
    throw new MedicError(ErrorCode.ConfigInvalid, `${source} is invalid; fix these entries (see MEDIC_POLICY_FILE):\n${lines.join('\n')}`);
  }
  const seen = new Set<string>();
  for (const action of parsed.data.actions) {
    if (seen.has(action.name)) throw new MedicError(ErrorCode.ConfigInvalid, `${source}: action ${action.name} is declared twice.`);
    if ((FORBIDDEN_TOOLS as readonly string[]).includes(action.name)) {
      throw new MedicError(ErrorCode.ConfigInvalid, `${source}: ${action.name} is something Medic must never do and cannot be declared.`);
    }
    seen.add(action.name);
  }
  return parsed.data.actions;
}

/** Reads the policy file; a missing file means "no operational actions", not an error. */
export async function loadPolicy(path: string): Promise<ActionPolicy[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new MedicError(ErrorCode.ConfigInvalid, `Cannot read the policy file ${path}: ${(error as Error).message}`);
  }
  return parsePolicy(text, path);
}
