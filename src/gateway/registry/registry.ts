import { createLlmTools, type GatedModel } from './llm-tools.js';
import { ErrorCode, type ErrorCode as Code } from '../../domain/errors.js';
import { canonicalJson, sha256 } from '../../domain/hash.js';
import type { Chat } from '../../ports/chat.js';
import type { CodeRepository, FixPublisher, PullRequests } from '../../ports/code.js';
import type { IncidentGrouping } from '../../ports/incident-grouping.js';
import type { LogSource } from '../../ports/log-source.js';
import { createActionTools } from '../actions/action-tools.js';
import type { AutomationClient } from '../actions/automation-client.js';
import { createCheckTools } from './check-tools.js';
import { createCodeHostTools } from './code-host-tools.js';
import type { CheckProposal } from '../../ports/proposal-checks.js';
import { createGroupingTools } from './grouping-tools.js';
import type { InvocationContext } from './effect.js';
import { describeIssues, hasWildcardIssue } from '../arguments/identifiers.js';
import { FORBIDDEN_TOOLS, type ActionPolicy } from '../actions/policy.js';
import { createReadTools, type CodeSearch, type DocsSearch } from './read-tools.js';
import { createSlackTools } from './slack-tools.js';
import type { AnyToolSpec } from './tool-spec.js';

export interface ToolRegistryDeps {
  logs?: LogSource;
  chat?: Chat;
  repo?: CodeRepository;
  publisher?: FixPublisher;
  pullRequests?: PullRequests;
  searchDocs?: DocsSearch;
  searchCode?: CodeSearch;
  /** Runs the service's check command on a proposal (`code.check-proposal`). */
  checkProposal?: CheckProposal;
  automation?: AutomationClient;
  /** Operator grouping decisions (open a family from the overflow). */
  grouping?: IncidentGrouping;
  /** The operational actions of the policy file, already validated (`loadPolicy`). */
  actions?: readonly ActionPolicy[];
  /** The model, when one is configured (`llm.complete`). */
  model?: GatedModel;
}

/** Actions the Slack client performs itself; sent to the server plane they are refused. */
export const CLIENT_PLANE_ACTIONS = ['card.show-diff', 'card.expand-evidence', 'modal.open-step-up'] as const;

/** A capped argument: the model asked for more than the bound allows. */
export interface CappedArg {
  field: string;
  requested: number;
  cap: number;
}

export type Normalized =
  | { ok: true; spec: AnyToolSpec; args: unknown; argsHash: string; capped: CappedArg[] }
  | { ok: false; spec?: AnyToolSpec; code: Code; reason: string; argsHash: string };

export interface ToolRegistry {
  get(name: string): AnyToolSpec | undefined;
  list(): readonly AnyToolSpec[];
  /** Validates and caps an intent's arguments; refuses unknown tools and selectors. Pure. */
  normalize(tool: string, args: unknown): Normalized;
  /** What an approval for this call binds to (the args hash unless the tool narrows it). */
  approvalHash(spec: AnyToolSpec, args: unknown, ctx: InvocationContext): string;
}

export function hashArgs(args: unknown): string {
  try {
    return sha256(canonicalJson(args ?? null));
  } catch {
    return 'unhashable';
  }
}

/** The one registry: built once from the ports and the policy, then frozen. */
export function createToolRegistry(deps: ToolRegistryDeps): ToolRegistry {
  const specs = [
    ...createReadTools(deps),
    ...createSlackTools(deps.chat),
    ...createCodeHostTools(deps),
    ...createCheckTools(deps.checkProposal),
    ...createGroupingTools(deps.grouping),
    ...createLlmTools(deps.model),
    ...createActionTools(deps.actions ?? [], deps.automation),
  ];
  const byName = new Map<string, AnyToolSpec>();
  for (const spec of specs) {
    if (byName.has(spec.name)) throw new Error(`Tool ${spec.name} is declared twice; a policy action may not shadow a built-in tool.`);
    if ((FORBIDDEN_TOOLS as readonly string[]).includes(spec.name)) throw new Error(`Tool ${spec.name} must never be registered.`);
    byName.set(spec.name, Object.freeze(spec));
  }
  const list = Object.freeze([...byName.values()]);

  return {
    get: (name) => byName.get(name),
    list: () => list,
    normalize(tool, rawArgs) {
      const spec = byName.get(tool);
      if (!spec) return { ok: false, code: ErrorCode.ToolUnknown, reason: 'unknown tool: not in the registry (fail closed)', argsHash: hashArgs(rawArgs) };
      const { args, capped } = applyCaps(spec, rawArgs);
      const parsed = spec.schema.safeParse(args);
      if (!parsed.success) {
        const wildcard = hasWildcardIssue(parsed.error);
        return {
          ok: false,
          spec,
          code: wildcard ? ErrorCode.ToolWildcardProhibited : ErrorCode.ValidationFailed,
          reason: `${wildcard ? 'selector in an identifier' : 'invalid arguments'}: ${describeIssues(parsed.error)}`,
          argsHash: hashArgs(rawArgs),
        };
      }
      return { ok: true, spec, args: parsed.data, argsHash: hashArgs(parsed.data), capped };
    },
    approvalHash(spec, args, ctx) {
      return spec.approvalKey ? hashArgs(spec.approvalKey(args, ctx)) : hashArgs(args);
    },
  };
}

/** Integers above their bound are lowered to it and flagged; below the minimum they fail validation. */
function applyCaps(spec: AnyToolSpec, args: unknown): { args: unknown; capped: CappedArg[] } {
  if (!spec.caps || !args || typeof args !== 'object' || Array.isArray(args)) return { args, capped: [] };
  const copy = { ...(args as Record<string, unknown>) };
  const capped: CappedArg[] = [];
  for (const [field, cap] of Object.entries(spec.caps)) {
    const value = copy[field];
    if (typeof value === 'number' && Number.isInteger(value) && value > cap) {
      capped.push({ field, requested: value, cap });
      copy[field] = cap;
    }
  }
  return { args: copy, capped };
}
