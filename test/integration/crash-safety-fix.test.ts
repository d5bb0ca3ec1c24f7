import { describe, it } from 'vitest';
import { FIX_STEPS } from '../../src/domain/incident.js';
import { DRILL_MS, crashDrill } from '../support/crash-drill.js';

describe('a worker killed after each fix step', () => {
  // Each drill has its own world (Redis prefix, data dir, worker processes), so the drills run side by side:
  // part of each drill is waiting for the restarted worker to start and for the killed one's job lock to lapse.
  it.concurrent.for(FIX_STEPS)('resumes after "%s" without a second branch, push or reply', { timeout: DRILL_MS + 10_000 }, async (step, { expect }) => {
    const outcome = await crashDrill(step);
    expect(outcome.killedBy).toBe('SIGKILL');
    expect(outcome.incident.state).toBe('fixed');
    expect(outcome.cards).toBe(1);
    expect(outcome.branches).toEqual([outcome.incident.fix!.branch]);
    for (const [name, count] of Object.entries(outcome.stepAudits)) expect([name, count]).toEqual([name, 1]);
  });
});
