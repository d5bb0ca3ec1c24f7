import { ErrorCode, MedicError } from '../../domain/errors.js';

/** The outer bound of one streamed poll, its consumer's work included (a poll reads at most 16 MB per file). */
export const STREAM_TIMEOUT_MS = 30 * 60_000;
/** How long a source may go without handing over its next part, when its adapter sets no timeout. */
export const DEFAULT_READ_IDLE_MS = 5_000;

/**
 * Runs a streaming read whose parts go to `sink`: the deadline is the source's, counted while
 * the source reads and restarted after each part is consumed, so a long ingest never times out a
 * healthy source and a silent one still fails. Once the deadline passed (or `signal` aborted), no
 * further part reaches the sink: the read is reported failed and nothing is ingested after that.
 */
export async function readWithIdleDeadline<T, R>(
  read: (onPart: (items: T[]) => Promise<void>) => Promise<R>,
  sink: (items: readonly T[]) => Promise<void>,
  idleMs: number,
  signal?: AbortSignal,
): Promise<R> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped: MedicError | undefined;
  let fail: (error: MedicError) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => { fail = reject; });
  const stop = (error: MedicError) => {
    stopped ??= error;
    fail(stopped);
  };
  const arm = () => {
    timer = setTimeout(() => stop(new MedicError(ErrorCode.UpstreamUnavailable, `The log source sent nothing for ${idleMs} ms; retry later.`, { transient: true })), idleMs);
  };
  const onAbort = () => stop(new MedicError(ErrorCode.UpstreamUnavailable, 'The streamed poll was stopped; retry later.', { transient: true }));
  signal?.addEventListener('abort', onAbort, { once: true });
  arm();
  try {
    return await Promise.race([
      read(async (items) => {
        clearTimeout(timer);
        if (stopped) throw stopped;
        await sink(items);
        arm();
      }),
      failed,
    ]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
