import { describe, expect, it } from 'vitest';
import { createSweepJob, sweepQuietIncidents, type SweepDeps } from '../../jobs/sweep.js';
import { createLogger } from '../../src/observability/logger.js';
import { reopenOnRegression } from '../../src/use-cases/reopen-regression.js';
import { useIncidentStore } from '../support/incident-store-world.js';
import { MIN, T0, verifyWorld } from '../support/verify-world.js';

describe('the sweep beside verification', () => {
  const base = useIncidentStore();
  const logger = createLogger({ level: 'silent' });

  function sweepDeps(w: ReturnType<typeof verifyWorld>, nowMs: number, resumed: string[] = []): SweepDeps {
    return {
      store: base.store(), deliveries: w.thread.deliveries, logger, quietPeriodS: 60, clock: () => new Date(nowMs),
      verify: {
        reopen: (id) => reopenOnRegression(id, { store: base.store(), deliveries: w.thread.deliveries, clock: () => new Date(nowMs) }),
        resume: async (id) => { resumed.push(id); return true; },
        maxWaitMs: 86_400_000,
      },
    };
  }

  it('leaves a fix awaiting its merge to the verdict, however quiet its family, and makes sure its job exists', async () => {
    const w = verifyWorld(base.store);
    const id = await w.pushedFix();
    const resumed: string[] = [];
    const later = T0 + 600 * MIN;
    expect(await sweepQuietIncidents(sweepDeps(w, later))).toEqual([]);
    expect((await base.store().require(id)).state).toBe('fixed');
    await createSweepJob(sweepDeps(w, T0 + MIN, resumed)).perform({}, { id: 'sweep', attemptsMade: 0 });
    expect(resumed).toEqual([id]);
  });

  it('reopens a verified incident whose family came back, where the card refresh did not', async () => {
    const w = verifyWorld(base.store);
    const id = await w.verifiedFix();
    // Quiet and verified: the sweep neither closes nor releases it.
    expect(await sweepQuietIncidents(sweepDeps(w, T0 + 200 * MIN))).toEqual([]);
    expect((await w.ingest(1, T0 + 60 * MIN)).absorbed).toBe(1);
    await sweepQuietIncidents(sweepDeps(w, T0 + 200 * MIN));
    const reopened = await base.store().require(id);
    expect(reopened.state).toBe('reported');
    expect(reopened.regressions).toHaveLength(1);
  });
});
