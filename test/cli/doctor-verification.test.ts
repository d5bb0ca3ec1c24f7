import { describe, expect, it } from 'vitest';
import { presentVerificationTally } from '../../src/cli/commands/doctor.js';
import type { Verification } from '../../src/domain/verification.js';
import { buildIncident } from '../support/builders.js';

const watched = (id: string, status: Verification['status']) =>
  buildIncident({ id, state: 'fixed', verification: { status, since: '2026-11-30T09:30:00.000Z', windowMinutes: 30, looks: 0 } });

describe('doctor: fixes awaiting verification', () => {
  it('counts the watches by stage and names them; a verdict is no longer awaited', () => {
    const line = presentVerificationTally([watched('inc-1', 'awaiting_merge'), watched('inc-2', 'watching'), watched('inc-3', 'awaiting_merge'), watched('inc-4', 'verified'), buildIncident({ id: 'inc-5' })]);
    expect(line).toBe(`${'verification'.padEnd(20)}3 awaiting · 2 awaiting merge · 1 watching (inc-1, inc-2, inc-3)`);
  });

  it('says so when none is awaited', () => {
    expect(presentVerificationTally([watched('inc-1', 'still_failing')])).toBe(`${'verification'.padEnd(20)}none awaiting`);
  });
});
