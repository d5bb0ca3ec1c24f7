import { describe, expect, it } from 'vitest';
import { IncidentState, canTransition, transition } from '../../src/domain/incident.js';
import { MedicError } from '../../src/domain/errors.js';
import { buildIncident } from '../support/builders.js';

describe('the incident state machine', () => {
  it('follows the happy path from new to fixed', () => {
    let incident = buildIncident();
    for (const to of ['analyzing', 'awaiting_approval', 'approved', 'fixing', 'fixed', 'closed'] as const) {
      incident = transition(incident, to, '2026-11-30T10:00:00.000Z');
      expect(incident.state).toBe(to);
    }
  });

  it('refuses moves the design does not allow, with a coded error', () => {
    const incident = buildIncident();
    expect(() => transition(incident, 'fixing', 'now')).toThrow(MedicError);
    expect(canTransition('awaiting_approval', 'fixing')).toBe(false);
    expect(canTransition('rejected', 'approved')).toBe(false);
    expect(canTransition('fixing', 'approved')).toBe(false);
  });

  it('lets every finished state be closed or re-run, and never leaves fixing except by finishing', () => {
    for (const state of ['reported', 'rejected', 'fix_failed', 'fixed'] as const) {
      expect(canTransition(state, 'analyzing')).toBe(true);
      expect(canTransition(state, 'closed')).toBe(true);
    }
    const fromFixing = IncidentState.options.filter((to) => canTransition('fixing', to));
    expect(fromFixing.sort()).toEqual(['fix_failed', 'fixed']);
  });

  it('is pure: a transition returns a new record', () => {
    const incident = buildIncident();
    const next = transition(incident, 'analyzing', 'later');
    expect(incident.state).toBe('new');
    expect(next.updatedAt).toBe('later');
  });
});
