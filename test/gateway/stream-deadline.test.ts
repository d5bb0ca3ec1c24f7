/**
 * A streamed poll's deadline is the source's own: counted while the source reads, restarted after
 * each part is consumed. A slow consumer never times out a healthy source; a silent source fails,
 * and nothing reaches the consumer after it failed.
 */
import { describe, expect, it } from 'vitest';
import { readWithIdleDeadline } from '../../src/gateway/registry/stream-deadline.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('readWithIdleDeadline', () => {
  it('lets a consumer take longer than the deadline on every part', async () => {
    const seen: number[] = [];
    const result = await readWithIdleDeadline<number, string>(async (onPart) => {
      for (let i = 0; i < 3; i++) await onPart([i]);
      return 'read to the end';
    }, async (items) => {
      await sleep(60);
      seen.push(...items);
    }, 40);
    expect(result).toBe('read to the end');
    expect(seen).toEqual([0, 1, 2]);
  });

  it('fails a source silent for longer than the deadline, and hands nothing over after that', async () => {
    const seen: number[] = [];
    let late: Promise<void> | undefined;
    const read = readWithIdleDeadline<number, string>(async (onPart) => {
      await onPart([1]);
      await sleep(80);
      late = onPart([2]);
      await late;
      return 'never';
    }, async (items) => {
      seen.push(...items);
    }, 30);
    await expect(read).rejects.toMatchObject({ code: 'ERR_UPSTREAM_UNAVAILABLE', transient: true });
    await sleep(80);
    await expect(late).rejects.toMatchObject({ code: 'ERR_UPSTREAM_UNAVAILABLE' });
    expect(seen).toEqual([1]);
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    const read = readWithIdleDeadline<number, string>(async () => {
      await sleep(100);
      return 'never';
    }, async () => undefined, 1_000, controller.signal);
    controller.abort();
    await expect(read).rejects.toMatchObject({ code: 'ERR_UPSTREAM_UNAVAILABLE' });
  });
});
