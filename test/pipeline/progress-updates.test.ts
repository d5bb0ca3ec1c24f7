import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Incident } from '../../src/domain/incident.js';
import type { PipelineDeps } from '../../src/pipeline/pipeline-deps.js';
import { createProgressUpdates } from '../../src/pipeline/progress-updates.js';
import { buildIncident } from '../support/builders.js';

const card = { channel: 'C1', ts: '1.1' };
let requests: [number, string][];

// Only what the progress updates reach: the card delivery request, and the logger it warns on.
const withJob = () => ({
  requestCard: async (_id: string, version: number, priority: string) => void requests.push([version, priority]),
  logger: { warn: () => undefined },
}) as unknown as PipelineDeps;

const version = (step: string, n: number): Incident => buildIncident({ state: 'analyzing', card, title: `after ${step}`, version: n, steps: { [step]: { at: '2026-11-30T09:00:00.000Z' } } });

beforeEach(() => {
  requests = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('card progress during an analysis', () => {
  it('asks for quick steps as one progress delivery of the latest of them', async () => {
    const progress = createProgressUpdates(withJob(), { quietMs: 250, maxWaitMs: 1_000 });
    for (const [i, step] of ['intake', 'log-window', 'similar-docs'].entries()) {
      progress.schedule(version(step, i + 2));
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(requests).toEqual([]);
    await vi.advanceTimersByTimeAsync(250);
    await progress.settle();
    expect(requests).toEqual([[4, 'progress']]);
  });

  it('still asks during a long run of quick steps at the longest wait', async () => {
    const progress = createProgressUpdates(withJob(), { quietMs: 250, maxWaitMs: 1_000 });
    for (let i = 0; i < 12; i++) {
      progress.schedule(version(`step-${i}`, i + 2));
      await vi.advanceTimersByTimeAsync(200);
    }
    await progress.settle();
    expect(requests).toEqual([[6, 'progress'], [11, 'progress']]);
  });

  it('drops what is pending on settle, so the final card lands last', async () => {
    const progress = createProgressUpdates(withJob(), { quietMs: 250, maxWaitMs: 1_000 });
    progress.schedule(version('fix-proposal', 9));
    await progress.settle();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(requests).toEqual([]);
  });

  describe('around the post after intake', () => {
    it('asks the job for progress instead of writing the card', async () => {
      const progress = createProgressUpdates(withJob(), { quietMs: 250, maxWaitMs: 1_000 });
      for (const [i, step] of ['log-window', 'similar-docs', 'recent-changes'].entries()) progress.schedule(version(step, i + 3));
      await vi.advanceTimersByTimeAsync(300);
      await progress.settle();
      expect(requests).toEqual([[5, 'progress']]);
    });

    it('posts within the quiet time of intake, showing the latest state, however many quick steps follow', async () => {
      const progress = createProgressUpdates(withJob(), { quietMs: 250, maxWaitMs: 1_000 });
      progress.schedule(version('intake', 2), { post: true });
      for (const [i, step] of ['log-window', 'similar-docs', 'recent-changes', 'rca'].entries()) {
        await vi.advanceTimersByTimeAsync(100);
        progress.schedule(version(step, i + 3));
      }
      await vi.advanceTimersByTimeAsync(1_000);
      await progress.settle();
      expect(requests).toEqual([[4, 'final'], [6, 'progress']]);
    });

    it('leaves the post to the final request of an analysis that ends sooner, and sends it when one does not', async () => {
      const quick = createProgressUpdates(withJob(), { quietMs: 250, maxWaitMs: 1_000 });
      quick.schedule(version('intake', 2), { post: true });
      quick.schedule(version('log-window', 3));
      await quick.settle({ drop: true });
      await vi.advanceTimersByTimeAsync(2_000);
      expect(requests).toEqual([]);

      const failing = createProgressUpdates(withJob(), { quietMs: 250, maxWaitMs: 1_000 });
      failing.schedule(version('intake', 2), { post: true });
      await failing.settle();
      expect(requests).toEqual([[2, 'final']]);
    });
  });
});
