import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/domain/audit.js';
import { PIPELINE_ACTOR } from '../../src/domain/audit.js';
import { auditRef, buildTimeline, resolutionCount } from '../../src/domain/timeline.js';

const rec = (at: string, action: string, details?: Record<string, unknown>, extra: Partial<AuditEvent> = {}): AuditEvent => ({
  at, action, outcome: 'done', actor: PIPELINE_ACTOR, incidentId: 'inc-1', ...(details ? { details } : {}), ...extra,
});
const APPROVER = { kind: 'user' as const, id: 'U1', name: 'dana' };

/** The records Medic writes over one incident's life, as their writers shape them. */
const trail: AuditEvent[] = [
  rec('2026-11-30T09:00:05.000Z', 'incident.analyze'),
  rec('2026-11-30T09:00:06.000Z', 'step.same-failure', { checked: false }),
  rec('2026-11-30T09:00:06.100Z', 'step.intake', { service: 'shop', severity: 'error', firstEventAt: '2026-11-30T09:00:00.000Z' }),
  rec('2026-11-30T09:00:07.000Z', 'incident.card-posted', { title: 't', channel: 'C-ONCALL' }),
  rec('2026-11-30T09:00:07.500Z', 'gateway.tool-call', { tool: 'slack.post-card' }, { outcome: 'allowed' }),
  rec('2026-11-30T09:00:09.000Z', 'step.rca', { analyst: 'llm', confidence: 0.82, evidence: 3 }),
  rec('2026-11-30T09:00:09.100Z', 'step.recommend', { kind: 'fix', analyst: 'llm' }),
  rec('2026-11-30T09:00:09.200Z', 'step.diagnostics', { proposed: 0 }),
  rec('2026-11-30T09:00:09.300Z', 'step.fix-proposal', { proposed: true, file: 'src/cart.ts', contentHash: 'h' }),
  rec('2026-11-30T09:00:09.400Z', 'step.card', { state: 'awaiting_approval' }),
  rec('2026-11-30T09:03:00.000Z', 'incident.approve', { proposalHash: 'h' }, { outcome: 'denied', actor: { kind: 'user', id: 'U-NOBODY' }, reason: 'not an approver' }),
  rec('2026-11-30T09:04:00.000Z', 'incident.approve', { proposalHash: 'h' }, { outcome: 'allowed', actor: APPROVER }),
  rec('2026-11-30T09:04:01.000Z', 'fix.start', { proposalHash: 'h' }),
  rec('2026-11-30T09:04:02.000Z', 'step.publish', { branch: 'fix/inc-1-20261130090400', commit: 'abcdef0123456789', pushStatus: 'pushed' }),
  rec('2026-11-30T09:04:03.000Z', 'step.pull-request', { pullRequest: 'https://github.example/o/r/pull/7' }),
  rec('2026-11-30T09:04:04.000Z', 'step.thread-reply', {}),
  rec('2026-11-30T09:04:05.000Z', 'fix.finish'),
  rec('2026-11-30T09:05:00.000Z', 'fix.checks', { state: 'pending', looks: 1 }),
  rec('2026-11-30T09:06:00.000Z', 'fix.checks', { state: 'pending', looks: 2 }),
  rec('2026-11-30T09:07:00.000Z', 'fix.checks', { state: 'success', looks: 3 }),
  rec('2026-11-30T09:20:00.000Z', 'fix.merged', { mergedAt: '2026-11-30T09:18:00.000Z', commit: 'fedcba9876543210', pullNumber: 7 }),
  rec('2026-11-30T09:30:00.000Z', 'fix.deployed', { deployedAt: '2026-11-30T09:25:00.000Z', marker: 'GitHub deployment production' }),
  rec('2026-11-30T10:30:00.000Z', 'incident.verified', { deployedAt: '2026-11-30T09:25:00.000Z', windowMinutes: 60, beforePerHour: 40, firstSeen: '2026-11-30T09:00:00.000Z', lastSeen: '2026-11-30T09:17:00.000Z', count: 12 }),
];

describe('buildTimeline', () => {
  const entries = buildTimeline(trail);

  it('tells the story in order, from the first event to the verdict', () => {
    expect(entries.map((e) => e.kind)).toEqual([
      'first-event', 'analysis-started', 'card', 'analysis', 'recommendation', 'proposal', 'analysis-posted',
      'decision', 'push', 'pull-request', 'checks', 'checks', 'last-event', 'merge', 'deploy', 'verified',
    ]);
    expect(entries[0]).toMatchObject({ at: '2026-11-30T09:00:00.000Z', text: 'First event in shop (error)' });
    expect(entries.find((e) => e.kind === 'card')?.text).toBe('Card posted in C-ONCALL');
    expect(entries.find((e) => e.kind === 'analysis')?.text).toBe('Root cause analysed by llm (confidence 82%, 3 evidence lines cited)');
    expect(entries.find((e) => e.kind === 'decision')).toMatchObject({ text: 'Fix approved', by: 'dana' });
    expect(entries.find((e) => e.kind === 'push')?.text).toBe('Branch fix/inc-1-20261130090400 pushed (commit abcdef012345)');
    expect(entries.find((e) => e.kind === 'pull-request')?.link).toBe('https://github.example/o/r/pull/7');
    expect(entries.filter((e) => e.kind === 'checks').map((e) => e.text)).toEqual(['Checks running', 'Checks passed']);
    expect(entries.find((e) => e.kind === 'merge')).toMatchObject({ at: '2026-11-30T09:18:00.000Z', text: 'Fix merged (PR #7) as fedcba987654' });
    expect(entries.find((e) => e.kind === 'last-event')).toMatchObject({ at: '2026-11-30T09:17:00.000Z', text: 'Last event (12 events in all)' });
    expect(entries.at(-1)?.text).toBe('Resolved — verified: quiet for 60 minutes after the deploy (40/h before)');
  });

  it('cites for every entry the one record it came from', () => {
    const byRef = new Map(trail.map((r) => [auditRef(r), r]));
    for (const entry of entries) {
      const source = byRef.get(entry.source.ref);
      expect(source, entry.text).toBeDefined();
      expect([source!.at, source!.action]).toEqual([entry.source.at, entry.source.action]);
    }
    // A refused decision is audited but is not a decision.
    expect(entries.filter((e) => e.source.action === 'incident.approve')).toHaveLength(1);
  });

  it('gives no entry where the record lacks the time it would show', () => {
    const old = buildTimeline([rec('2026-11-30T09:00:06.000Z', 'step.intake', { service: 'shop' }), rec('2026-11-30T09:20:00.000Z', 'fix.merged', { commit: 'c' })]);
    expect(old).toEqual([]);
  });

  it('shows a rejection with its reason, a still-failing verdict, a regression and a quiet close', () => {
    const more = buildTimeline([
      rec('2026-11-30T09:04:00.000Z', 'incident.reject', { proposalHash: 'h' }, { outcome: 'allowed', actor: { kind: 'user', id: 'U2' }, reason: 'wrong file' }),
      rec('2026-11-30T10:00:00.000Z', 'incident.still-failing', { deployedAt: '2026-11-30T09:25:00.000Z', eventsSince: 3, lastSeen: '2026-11-30T09:59:00.000Z', count: 15 }),
      rec('2026-11-30T12:00:00.000Z', 'incident.regressed', { firstEventAt: '2026-11-30T11:58:00.000Z', afterBranch: 'fix/inc-1-x' }),
      rec('2026-11-30T13:00:00.000Z', 'incident.resolve', { quietMinutes: 30, from: 'reported', lastSeen: '2026-11-30T12:10:00.000Z' }),
    ]);
    expect(more.map((e) => [e.kind, e.text, e.by])).toEqual([
      ['decision', 'Fix rejected: wrong file', 'U2'],
      ['still-failing', 'Still failing: 3 events after the deploy', undefined],
      ['regressed', 'Regressed: the family came back after fix/inc-1-x', undefined],
      ['last-event', 'Last event', undefined],
      ['resolved', 'Resolved — quiet for 30 minutes', undefined],
    ]);
  });

  it('counts resolutions from the audit (the timeline reply key)', () => {
    expect(resolutionCount(trail)).toBe(1);
    expect(resolutionCount([...trail, rec('2026-12-01T00:00:00.000Z', 'incident.resolve', { quietMinutes: 5 })])).toBe(2);
  });

  it('references a record by its content, the same however its keys are ordered', () => {
    const a = rec('2026-11-30T09:00:00.000Z', 'step.rca', { confidence: 0.5, analyst: 'x' });
    const b = { details: { analyst: 'x', confidence: 0.5 }, actor: a.actor, outcome: a.outcome, action: a.action, at: a.at, incidentId: a.incidentId };
    expect(auditRef(a)).toBe(auditRef(b));
    expect(auditRef(a)).not.toBe(auditRef({ ...a, at: '2026-11-30T09:00:01.000Z' }));
  });
});
