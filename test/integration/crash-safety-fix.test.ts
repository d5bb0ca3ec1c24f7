import { describe, expect, it } from 'vitest';
import { FIX_STEPS } from '../../src/domain/incident.js';
import { crashDrill } from '../support/crash-drill.js';

describe('a worker killed after each fix step', () => {
  it.each(FIX_STEPS.map((s) => [s]))('resumes after "%s" without a second branch, push or reply', async (step) => {
    const outcome = await crashDrill(step);
    expect(outcome.killedBy).toBe('SIGKILL');
    expect(outcome.incident.state).toBe('fixed');
    expect(outcome.cards).toBe(1);
    expect(outcome.branches).toEqual([outcome.incident.fix!.branch]);
    for (const [name, count] of Object.entries(outcome.stepAudits)) expect([name, count]).toEqual([name, 1]);
  }, 120_000);
});
