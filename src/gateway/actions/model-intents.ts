import { ErrorCode } from '../../domain/errors.js';
import type { AnyToolSpec } from '../registry/tool-spec.js';

/** Why a model-named intent that exists in the registry is still refused. */
export const NOT_PROPOSABLE_REASON = "one of Medic's own tools, not an operator policy action: a model may propose only the actions of the policy catalog";

/**
 * What a model may name: only the operator's policy actions. A built-in tool such as
 * `slack.post-card` or `code.read-file` is reached by Medic's code, so a model naming one is
 * refused like an unknown tool — otherwise model text could be posted raw or a file dumped into
 * a thread without passing a presenter.
 */
export function refuseUnlessProposable(spec: AnyToolSpec | undefined): { code: ErrorCode; reason: string } | undefined {
  if (!spec) return { code: ErrorCode.ToolUnknown, reason: 'unknown tool: not in the registry (fail closed)' };
  return spec.proposable === true ? undefined : { code: ErrorCode.ToolDenied, reason: NOT_PROPOSABLE_REASON };
}
