import { describe, it } from 'vitest';
import { PIPELINE_STEPS } from '../../src/domain/incident.js';
import { DRILL_MS, crashDrill } from '../support/crash-drill.js';

describe('a worker killed after each analysis step', () => {
  // Each drill has its own world (Redis prefix, data dir, worker processes), so the drills run side by side:
  // part of each drill is waiting for the restarted worker to start and for the killed one's job lock to lapse.
  it.concurrent.for(PIPELINE_STEPS)('resumes after "%s" and completes the incident exactly once', { timeout: DRILL_MS + 10_000 }, async (step, { expect }) => {
    const outcome = await crashDrill(step);
    expect(outcome.killedBy).toBe('SIGKILL');
    expect(outcome.incident.state).toBe('fixed');
    expect(outcome.cards).toBe(1);
    expect(outcome.branches).toHaveLength(1);
    for (const [name, count] of Object.entries(outcome.stepAudits)) expect([name, count]).toEqual([name, 1]);
  });
});
