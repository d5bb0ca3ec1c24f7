import { describe, expect, it } from 'vitest';
import { PIPELINE_STEPS } from '../../src/domain/incident.js';
import { crashDrill } from '../support/crash-drill.js';

describe('a worker killed after each analysis step', () => {
  it.each(PIPELINE_STEPS.map((s) => [s]))('resumes after "%s" and completes the incident exactly once', async (step) => {
    const outcome = await crashDrill(step);
    expect(outcome.killedBy).toBe('SIGKILL');
    expect(outcome.incident.state).toBe('fixed');
    expect(outcome.cards).toBe(1);
    expect(outcome.branches).toHaveLength(1);
    for (const [name, count] of Object.entries(outcome.stepAudits)) expect([name, count]).toEqual([name, 1]);
  }, 120_000);
});
