/**
 * Medic's coded errors. Every error that crosses a boundary carries a stable code and a message
 * that tells the operator the next step. Messages never carry secrets.
 */
export const ErrorCode = {
  ConfigInvalid: 'ERR_CONFIG_INVALID',
  ValidationFailed: 'ERR_VALIDATION_FAILED',
  NotFound: 'ERR_NOT_FOUND',
  InvalidTransition: 'ERR_INVALID_TRANSITION',
  Conflict: 'ERR_CONFLICT',
  Unauthorized: 'ERR_UNAUTHORIZED',
  StaleApproval: 'ERR_STALE_APPROVAL',
  /** A write by a holder whose lease was taken over and written by a later holder (a larger fence). */
  StaleLease: 'ERR_STALE_LEASE',
  UpstreamUnavailable: 'ERR_UPSTREAM_UNAVAILABLE',
  UpstreamRejected: 'ERR_UPSTREAM_REJECTED',
  FixRefused: 'ERR_FIX_REFUSED',
  ModelOutputInvalid: 'ERR_MODEL_OUTPUT_INVALID',
  BudgetExhausted: 'ERR_BUDGET_EXHAUSTED',
  ToolUnknown: 'ERR_TOOL_UNKNOWN',
  ToolDenied: 'ERR_TOOL_DENIED',
  ToolWildcardProhibited: 'ERR_TOOL_WILDCARD_PROHIBITED',
  Internal: 'ERR_INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export class MedicError extends Error {
  readonly code: ErrorCode;
  /** Transient errors are worth retrying; the rest fail fast (UnrecoverableError in jobs). */
  readonly transient: boolean;
  /** How long the upstream asked to be left alone (Slack's Retry-After), when it said. */
  readonly retryAfterMs?: number;
  /** The upstream's own error name (Slack's `channel_not_found`), for callers that act on it. */
  readonly upstreamCode?: string;

  constructor(code: ErrorCode, message: string, options: { transient?: boolean; cause?: unknown; retryAfterMs?: number; upstreamCode?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MedicError';
    this.code = code;
    this.transient = options.transient ?? false;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.upstreamCode !== undefined) this.upstreamCode = options.upstreamCode;
  }
}

export function isMedicError(value: unknown): value is MedicError {
  return value instanceof MedicError;
}

/** Normalizes anything thrown into a MedicError, keeping coded errors as they are. */
export function asMedicError(value: unknown): MedicError {
  if (value instanceof MedicError) return value;
  const message = value instanceof Error ? value.message : String(value);
  return new MedicError(ErrorCode.Internal, message, { cause: value, transient: true });
}
