import type { z } from 'zod';
import type { AuthorityScope } from '../../ports/authority.js';
import type { EffectClass, InvocationContext, Permission } from './effect.js';

/** What a handler sees besides its arguments: who, which incident, which trace, and an abort signal. */
export interface ToolRunContext extends InvocationContext {
  /** Aborted at the deadline, and when the write lease is lost. */
  signal: AbortSignal;
  /**
   * A write's lease on its target: its fence, and the check its resource makes just before the
   * irreversible effect (false: a later holder has written; the write must not happen).
   */
  lease?: { fence: number; admit(): Promise<boolean> };
  /** The approver whose recorded approval (or step-up confirmation) authorized this run. */
  approverId?: string;
}

/**
 * One tool, declared in code. The declaration is the single authority for what the tool needs:
 * the Slack layer, the jobs and the pipeline all read it, so they cannot disagree.
 */
export interface ToolSpec<A, R> {
  name: string;
  summary: string;
  effect: EffectClass;
  permission: Permission;
  /** Whether a human can undo the effect (a restart: yes; a failover: no). Shown on the card. */
  reversible: boolean;
  /** The system the call reaches; one circuit breaker per upstream. */
  upstream: string;
  /** Strict: unknown keys fail, so a forged `approved: true` never rides along. */
  schema: z.ZodType<A>;
  /** Paths of identifier fields (selectors are refused there); `*` stands for any record key. */
  identifiers: readonly (readonly string[])[];
  /** Integer fields capped above this bound; a capped intent is flagged and needs a human. */
  caps?: Readonly<Record<string, number>>;
  /** A recent result may answer this read while its upstream is degraded. */
  cacheable?: boolean;
  /**
   * The adapter owns this upstream's retry and rate-limit policy (Slack's pacer and the card
   * delivery job): the gateway's breaker neither counts its failures nor refuses it, so one policy
   * decides, and a Slack 429 never halts mutations elsewhere.
   */
  selfPaced?: boolean;
  timeoutMs?: number;
  /** The one thing a MUTATING/DESTRUCTIVE call changes, by name: locked per upstream, typed in step-up. */
  target?: (args: A) => string;
  /**
   * Incidents or services the call changes besides its own incident (a merge's survivor, an
   * overflow family's service): the caller and the approver must hold the permission on each too.
   */
  alsoAuthorizedOn?: (args: A) => Promise<AuthorityScope[]>;
  /** Re-running with the same approval is harmless (idempotent by key), so the approval is not spent. */
  idempotent?: boolean;
  /** What an approval binds to, when not the whole argument object (e.g. a fix's content hash). */
  approvalKey?: (args: A, ctx: InvocationContext) => unknown;
  /** A follow-up tool this success authorizes, under the same approver (publish → its PR). */
  grants?: (args: A, result: R) => { tool: string; key: unknown } | undefined;
  /** False when the port behind it is not configured: the tool is known but refuses to run. */
  available: boolean;
  /**
   * True only for the operator's policy actions (`data/policy/actions.yaml`). Medic's own tools
   * (Slack posts, code reads, log searches, git) are called by Medic's code and are never
   * accepted when a model names them; absent means false, so a new built-in is closed by default.
   */
  proposable?: boolean;
  handler: (args: A, ctx: ToolRunContext) => Promise<R>;
}

/** A spec with its types erased, as the registry holds it. */
export type AnyToolSpec = ToolSpec<unknown, unknown>;

/** Erases a spec's argument and result types once the schema guarantees them. */
export function defineTool<A, R>(spec: ToolSpec<A, R>): AnyToolSpec {
  return spec as unknown as AnyToolSpec;
}

/** Thrown by a handler whose dependency is missing; the registry marks such tools unavailable. */
export function missing(name: string): never {
  throw new Error(`${name} is not configured`);
}
