import { describe, expect, it } from 'vitest';
import { PIPELINE_ACTOR, type AuditEvent } from '../../src/domain/audit.js';
import { buildTimeline } from '../../src/domain/timeline.js';
import { mdFence, mdText, presentPostmortem } from '../../src/presenters/postmortem.js';
import { presentTimelineMessage } from '../../src/presenters/timeline-message.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';
import { buildEvent } from '../support/builders.js';

const rec = (at: string, action: string, details?: Record<string, unknown>, extra: Partial<AuditEvent> = {}): AuditEvent => ({ at, action, outcome: 'done', actor: PIPELINE_ACTOR, ...(details ? { details } : {}), ...extra });

const hostile = 'see [docs](https://evil.example) ![x](https://evil.example/p.png) <img src=x onerror=alert(1)> @here Fixes #12 https://evil.example www.evil.example `code` *bold* | cell | token=sk-abcdefghijklmnopqrstuvwx';

const resolved = buildAnalysedIncident({
  id: 'inc-pm-1',
  state: 'closed',
  decision: { verdict: 'approved', actor: { kind: 'user', id: 'U1', name: 'dana' }, proposalHash: 'h', at: '2024-03-09T16:05:00.000Z' },
  fix: { branch: 'fix/inc-pm-1-20240309160500', commit: 'abcdef0123456789', pushStatus: 'pushed', pullRequest: { number: 7, url: 'https://github.example/o/r/pull/7' }, checks: 'success' },
  verification: { status: 'verified', since: '2024-03-09T16:05:01.000Z', windowMinutes: 60, mergedAt: '2024-03-09T16:20:00.000Z', deployedAt: '2024-03-09T16:20:00.000Z', deployMarker: 'merge', looks: 4 },
  resolution: { quietMinutes: 60, kind: 'verified' },
  diagnostics: { actions: [{ tool: 'k8s.restart', summary: 'Restart the gateway pods', effect: 'MUTATING', requires: 'approval', args: {}, argsHash: 'a', capped: [], outcome: { status: 'proposed', at: '2024-03-09T16:01:00.000Z' } }], notes: [] },
});
resolved.rca = { ...resolved.rca!, rootCause: `Timeout. ${hostile}` };
resolved.logs!.entries[2]!.message = 'PaymentTimeoutException ``` </pre><script>alert(1)</script>';

const trail: AuditEvent[] = [
  rec('2024-03-09T16:00:01.000Z', 'step.intake', { service: 'checkout', severity: 'error', firstEventAt: '2024-03-09T16:00:00.000Z' }),
  rec('2024-03-09T16:00:02.000Z', 'incident.card-posted', { title: 't', channel: 'C1' }),
  rec('2024-03-09T16:00:03.000Z', 'step.rca', { analyst: 'llm', confidence: 0.86, evidence: 2 }),
  rec('2024-03-09T16:05:00.000Z', 'incident.reject', {}, { outcome: 'allowed', actor: { kind: 'user', id: 'U9', name: '<!channel>' }, reason: hostile }),
  rec('2024-03-09T16:05:00.000Z', 'incident.approve', { proposalHash: 'h' }, { outcome: 'allowed', actor: { kind: 'user', id: 'U1', name: 'dana' } }),
  rec('2024-03-09T16:05:02.000Z', 'step.publish', { branch: 'fix/inc-pm-1-20240309160500', commit: 'abcdef0123456789', pushStatus: 'pushed' }),
  rec('2024-03-09T16:05:03.000Z', 'step.pull-request', { pullRequest: 'https://github.example/o/r/pull/7' }),
  rec('2024-03-09T16:20:01.000Z', 'fix.merged', { mergedAt: '2024-03-09T16:20:00.000Z', commit: 'fedcba9876543210', pullNumber: 7 }),
  rec('2024-03-09T17:20:00.000Z', 'incident.verified', { deployedAt: '2024-03-09T16:20:00.000Z', windowMinutes: 60, beforePerHour: 30, firstSeen: '2024-03-09T16:00:00.000Z', lastSeen: '2024-03-09T16:12:00.000Z', count: 9 }),
];

const samples = [
  buildEvent({ fields: { userId: 'u-1' } }),
  buildEvent({ fields: { userId: 'u-2' } }),
  buildEvent({ fields: { userId: 'u-1' } }),
  buildEvent({ fields: {} }),
];

describe('the postmortem draft', () => {
  const md = presentPostmortem({ incident: resolved, stats: { count: 9, firstSeen: '2024-03-09T16:00:00.000Z', lastSeen: '2024-03-09T16:12:00.000Z' }, trail, samples, generatedAt: '2024-03-10T08:00:00.000Z' });

  it('has the impact, the root cause with its evidence, the fix with its links, the timeline and the follow-ups', () => {
    for (const heading of ['# Postmortem draft:', '## Impact', '## Root cause', '## The fix', '## Timeline', '## Open follow-ups']) expect(md).toContain(heading);
    expect(md).toContain('**Events:** 9 (first 2024-03-09 16:00:00 UTC, last 2024-03-09 16:12:00 UTC)');
    expect(md).toContain('**Duration:** 12 minutes');
    expect(md).toContain('**Affected users:** 2 distinct `userId` values among the 4 sampled events (3 carried the field)');
    expect(md).toContain('log-1 2024-03-09T15:59:59.500Z WARN [gateway] gateway latency 4900ms');
    expect(md).toContain('[#7](https://github.example/o/r/pull/7)');
    expect(md).toContain('`fix/inc-pm-1-20240309160500`');
    expect(md).toContain('Resolved — verified');
    expect(md).toContain('Recommended action not run: `k8s.restart`');
    expect(md).toContain('No deploy marker configured');
  });

  it('shows each timeline entry with the audit record it came from', () => {
    const entries = buildTimeline(trail);
    const section = md.slice(md.indexOf('## Timeline'), md.indexOf('## Open follow-ups'));
    const lines = section.split('\n').filter((l) => l.startsWith('- '));
    expect(lines).toHaveLength(entries.length);
    entries.forEach((entry, i) => expect(lines[i]).toContain(`[${entry.source.action} ${entry.source.ref}]`));
  });

  it('keeps log, model and people text inert: no links, images, HTML, mentions, issue references or secrets', () => {
    expect(md).not.toContain('](https://evil');
    expect(md).not.toContain('![');
    // A fenced block shows its lines as code: outside the fences, no markup is left live.
    const prose = md.replace(/^(`{3,})text\n[\s\S]*?\n\1$/gm, '');
    expect(prose).not.toBe(md);
    expect(prose).not.toContain('<img');
    expect(prose).not.toContain('<script');
    expect(md).not.toMatch(/https:\/\/evil/);
    expect(md).not.toContain('@here');
    expect(md).not.toContain('Fixes #12');
    expect(md).not.toContain('sk-abcdefghijklmnopqrstuvwx');
    expect(md).not.toContain('<!channel>');
    // The only links are the PR's.
    expect([...md.matchAll(/\]\((https?:[^)]*)\)/g)].map((m) => m[1])).toEqual(['https://github.example/o/r/pull/7', 'https://github.example/o/r/pull/7']);
  });

  it('fences log lines so no line can close the block', () => {
    const fenced = mdFence('a ``` b\n```` c');
    expect(fenced.startsWith('`````text\n')).toBe(true);
    expect(fenced.endsWith('\n`````')).toBe(true);
    expect(mdText('a\nb *c* [d](e)')).toBe('a b \\*c\\* \\[d\\]\u200b(e)');
  });

  it('says who was affected only when an event field says so', () => {
    const none = presentPostmortem({ incident: resolved, trail, samples: [buildEvent()], generatedAt: '2024-03-10T08:00:00.000Z' });
    expect(none).toContain('**Affected users:** not known');
  });

  it('lists an unresolved, still-failing fix as a follow-up', () => {
    const failing = presentPostmortem({ incident: { ...resolved, state: 'reported', resolution: undefined, verification: { ...resolved.verification!, status: 'still_failing', eventsSince: 4, deployMarker: 'GitHub release v2' } }, trail: [], samples: [], generatedAt: '2024-03-10T08:00:00.000Z' });
    expect(failing).toContain('Not resolved yet.');
    expect(failing).toContain('- [ ] The incident is not resolved (reported).');
    expect(failing).toContain('Still failing after the fix was deployed (4 events since)');
    expect(failing).not.toContain('No deploy marker configured');
    expect(failing).toContain('The audit trail holds no step of this incident.');
  });
});

describe('the timeline message', () => {
  it('escapes every entry and links only https URLs', () => {
    const message = presentTimelineMessage(resolved, buildTimeline(trail));
    const blocks = JSON.stringify(message.blocks);
    expect(blocks).toContain('First event in checkout (error)');
    expect(blocks).toContain('<https://github.example/o/r/pull/7|github.example/o/r/pull/7>');
    expect(blocks).not.toContain('<!channel>');
    expect(blocks).not.toContain('<https://evil');
    expect(blocks).not.toContain('<img');
    expect(blocks).toContain('by dana');
    expect(message.text).toBe(`Timeline of inc-pm-1: ${buildTimeline(trail).length} entries`);
  });

  it("does not link a record's non-https link", () => {
    const blocks = JSON.stringify(presentTimelineMessage(resolved, buildTimeline([rec('2024-03-09T16:05:03.000Z', 'step.pull-request', { pullRequest: 'javascript:alert(1)' })])).blocks);
    expect(blocks).not.toContain('javascript:');
  });
});
