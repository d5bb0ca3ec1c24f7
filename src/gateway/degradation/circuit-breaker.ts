import { ErrorCode, isMedicError } from '../../domain/errors.js';
import { DEGRADED_REASON } from '../effect-gate/decide.js';

export interface BreakerOptions {
  /** Consecutive timeouts/transient failures that open an upstream's breaker (a 429 opens it at once). */
  failureThreshold: number;
  /** How long an open breaker stays open before one probe call is let through. */
  cooldownMs: number;
  /**
   * Upstreams whose open breaker refuses their own calls only (the model: the analysis falls back
   * to the offline analyst), never the mutations elsewhere nor the degraded notice.
   */
  advisory?: readonly string[];
  now?: () => number;
}

interface State {
  failures: number;
  openedAt?: number;
  reason?: string;
}

export interface Breakers {
  isOpen(upstream: string): boolean;
  /** True while any upstream is open: mutations halt everywhere, as the operator is told. */
  degraded(): boolean;
  recordSuccess(upstream: string): void;
  /** Returns true when the error counts against the upstream (rate limit, timeout, unavailable). */
  recordFailure(upstream: string, error: unknown): boolean;
  openUpstreams(): string[];
  /** The line the card shows while degraded, or undefined. */
  notice(): string | undefined;
}

/** Workers' coordination (a lock held, a lease taken over): retried, but no sign of an upstream's load. */
const COORDINATION = new Set<string>([ErrorCode.Internal, ErrorCode.Conflict, ErrorCode.StaleLease]);

/** A 429, a timeout, or a coded transient "upstream unavailable". Refusals (401, 422) and workers' coordination are not load. */
export function isDegradingError(error: unknown): boolean {
  if (statusOf(error) === 429) return true;
  if (isMedicError(error)) return error.code === ErrorCode.UpstreamUnavailable || (error.transient && !COORDINATION.has(error.code));
  const name = (error as { name?: string } | undefined)?.name;
  const code = (error as { code?: string } | undefined)?.code;
  return name === 'TimeoutError' || code === 'ETIMEDOUT' || code === 'ECONNRESET';
}

export function statusOf(error: unknown): number | undefined {
  const e = error as { status?: unknown; statusCode?: unknown; response?: { status?: unknown } } | undefined;
  const status = e?.status ?? e?.statusCode ?? e?.response?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * One breaker per upstream, in process memory: each worker learns of a rate limit from its own
 * calls, which is soon enough and needs no round trip on the hot path.
 */
export function createBreakers(options: BreakerOptions): Breakers {
  const now = options.now ?? Date.now;
  const states = new Map<string, State>();
  const isOpen = (upstream: string): boolean => {
    const state = states.get(upstream);
    if (state?.openedAt === undefined) return false;
    if (now() - state.openedAt < options.cooldownMs) return true;
    // Half-open: let the next call probe; another failure re-opens at once.
    state.openedAt = undefined;
    state.failures = options.failureThreshold - 1;
    return false;
  };
  const advisory = new Set(options.advisory ?? []);
  const openUpstreams = () => [...states.keys()].filter(isOpen).sort();
  const halting = () => openUpstreams().filter((u) => !advisory.has(u));
  return {
    isOpen,
    degraded: () => halting().length > 0,
    openUpstreams,
    recordSuccess(upstream) {
      states.delete(upstream);
    },
    recordFailure(upstream, error) {
      if (!isDegradingError(error)) return false;
      const state = states.get(upstream) ?? { failures: 0 };
      state.failures += 1;
      state.reason = statusOf(error) === 429 ? 'rate-limited' : 'timing out';
      if (statusOf(error) === 429 || state.failures >= options.failureThreshold) state.openedAt = now();
      states.set(upstream, state);
      return true;
    },
    notice() {
      const open = halting();
      if (open.length === 0) return undefined;
      const which = open.map((u) => `${u} (${states.get(u)?.reason ?? 'unavailable'})`).join(', ');
      return `${DEGRADED_REASON[0]?.toUpperCase() ?? ''}${DEGRADED_REASON.slice(1)}: ${which}. Mutating and destructive actions are halted until it recovers.`;
    },
  };
}

/** Recent read results, served only while the upstream is degraded. Bounded and short-lived. */
export function createReadCache(options: { ttlMs: number; maxEntries?: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const max = options.maxEntries ?? 1_000;
  const entries = new Map<string, { at: number; value: unknown }>();
  return {
    get(key: string): { value: unknown } | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (now() - entry.at > options.ttlMs) {
        entries.delete(key);
        return undefined;
      }
      return { value: entry.value };
    },
    set(key: string, value: unknown): void {
      entries.delete(key);
      entries.set(key, { at: now(), value });
      if (entries.size > max) entries.delete(entries.keys().next().value as string);
    },
  };
}
export type ReadCache = ReturnType<typeof createReadCache>;
