import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { AnyToolSpec, ToolRunContext } from '../registry/tool-spec.js';

/** How a handler ended by the deadline; on a timeout, `late` settles when the handler finally does. */
export type HandlerRun =
  | { kind: 'settled'; value: unknown }
  | { kind: 'threw'; error: unknown }
  | { kind: 'timed-out'; error: MedicError; late: Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }> };

/**
 * Runs a handler under a deadline. The abort signal reaches handlers that honour it (fetch does);
 * one that does not keeps running in the background — a push or a webhook may still land — so a
 * timeout is reported with the handler's own promise, for the gateway to audit the outcome as
 * unknown and reconcile it when it settles. It is never recorded as done, nor as surely failed.
 */
export async function runHandler(spec: AnyToolSpec, args: unknown, ctx: Omit<ToolRunContext, 'signal'>, timeoutMs: number, lost?: AbortSignal): Promise<HandlerRun> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown>;
  try {
    // A lost write lease aborts the handler as the deadline does: another worker may hold it now.
    const signal = lost ? AbortSignal.any([controller.signal, lost]) : controller.signal;
    running = spec.handler(args, { ...ctx, signal });
  } catch (error) {
    return { kind: 'threw', error };
  }
  const late = running.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const first = await Promise.race([late, deadline]);
    if (first !== 'timeout') return first.ok ? { kind: 'settled', value: first.value } : { kind: 'threw', error: first.error };
    const error = new MedicError(ErrorCode.UpstreamUnavailable, `${spec.name} timed out after ${timeoutMs} ms (${spec.upstream}); retry later.`, { transient: true });
    controller.abort(error);
    return { kind: 'timed-out', error, late };
  } finally {
    clearTimeout(timer);
  }
}
