import { ErrorCode, MedicError } from '../domain/errors.js';
import type { AnyToolSpec, ToolRunContext } from './tool-spec.js';

/**
 * Runs a handler under a deadline. The abort signal reaches handlers that honour it (fetch does);
 * one that does not keeps running in the background, but its result is no longer awaited and
 * the call is recorded as failed — never as done.
 */
export async function runHandler(spec: AnyToolSpec, args: unknown, ctx: Omit<ToolRunContext, 'signal'>, timeoutMs: number): Promise<unknown> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new MedicError(ErrorCode.UpstreamUnavailable, `${spec.name} timed out after ${timeoutMs} ms (${spec.upstream}); retry later.`, { transient: true });
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([spec.handler(args, { ...ctx, signal: controller.signal }), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
