import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Incident } from '../../src/domain/incident.js';
import type { PipelineDeps } from '../../src/pipeline/pipeline-deps.js';
import { createProgressUpdates } from '../../src/pipeline/progress-updates.js';
import type { ChatMessage } from '../../src/ports/chat.js';
import { buildIncident } from '../support/builders.js';

const card = { channel: 'C1', ts: '1.1' };
let shown: string[];

// Only what showProgress reaches: the incident's stats and rate, and the card update.
const deps = () => ({
  store: { stats: async () => ({ count: 3, firstSeen: '', lastSeen: '' }), eventRate: async () => ({}) },
  chat: { updateCard: async (_ref: unknown, message: ChatMessage) => void shown.push(message.text) },
  logger: { warn: () => undefined },
}) as unknown as PipelineDeps;

const at = (step: string): Incident => buildIncident({ state: 'analyzing', card, title: `after ${step}`, steps: { [step]: { at: '2026-11-30T09:00:00.000Z' } } });
const titles = () => shown.map((text) => /after [\w-]+/.exec(text)?.[0]);

beforeEach(() => {
  shown = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('card progress during an analysis', () => {
  it('writes quick steps as one update showing the latest of them', async () => {
    const progress = createProgressUpdates(deps(), { quietMs: 250, maxWaitMs: 1_000 });
    for (const step of ['intake', 'log-window', 'similar-docs']) {
      progress.schedule(at(step));
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(shown).toEqual([]);
    await vi.advanceTimersByTimeAsync(250);
    await progress.settle();
    expect(titles()).toEqual(['after similar-docs']);
  });

  it('still shows a long run of quick steps at the longest wait', async () => {
    const progress = createProgressUpdates(deps(), { quietMs: 250, maxWaitMs: 1_000 });
    for (let i = 0; i < 12; i++) {
      progress.schedule(at(`step-${i}`));
      await vi.advanceTimersByTimeAsync(200);
    }
    await progress.settle();
    expect(titles()).toEqual(['after step-4', 'after step-9']);
  });

  it('drops what is pending on settle, so the final card lands last', async () => {
    const progress = createProgressUpdates(deps(), { quietMs: 250, maxWaitMs: 1_000 });
    progress.schedule(at('fix-proposal'));
    await progress.settle();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(shown).toEqual([]);
  });

  describe('with a card delivery job', () => {
    let requests: [number, string][];
    const withJob = () => ({ ...deps(), requestCard: async (_id: string, version: number, priority: string) => void requests.push([version, priority]) }) as unknown as PipelineDeps;
    const version = (step: string, n: number): Incident => ({ ...at(step), version: n });
    beforeEach(() => {
      requests = [];
    });

    it('asks the job for progress instead of writing the card', async () => {
      const progress = createProgressUpdates(withJob(), { quietMs: 250, maxWaitMs: 1_000 });
      for (const [i, step] of ['log-window', 'similar-docs', 'recent-changes'].entries()) progress.schedule(version(step, i + 3));
      await vi.advanceTimersByTimeAsync(300);
      await progress.settle();
      expect(shown).toEqual([]);
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
