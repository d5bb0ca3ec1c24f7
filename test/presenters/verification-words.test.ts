import { describe, expect, it } from 'vitest';
import type { Incident } from '../../src/domain/incident.js';
import type { Verification } from '../../src/domain/verification.js';
import { presentChannelCard } from '../../src/presenters/channel-card.js';
import { presentIncidentLine } from '../../src/cli/commands/incidents.js';
import { STATUS_WORD_WIDTH, VERIFICATION_WORDS, plainStatusWord, presentStatusWord } from '../../src/presenters/status-words.js';
import { presentVerificationReply } from '../../src/presenters/verification-reply.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';

const decision = { verdict: 'approved' as const, actor: { kind: 'user' as const, id: 'U0APPROVER' }, proposalHash: 'h', at: 't' };
const fix = { branch: 'fix/inc-1-20261202140000', commit: '0123456789abcdef', pushStatus: 'pushed' as const, pullRequest: { number: 12, url: 'https://github.example/shop/pull/12' } };
const watch = (over: Partial<Verification>): Verification => ({ status: 'awaiting_merge', since: '2026-12-02T13:50:00.000Z', windowMinutes: 30, looks: 1, ...over });
const merged = { mergedAt: '2026-12-02T14:02:00.000Z', mergeCommit: 'abc1234' };
const deployed = { ...merged, deployedAt: '2026-12-02T14:10:00.000Z', beforePerHour: 120, countAtDeploy: 400 };

function fixed(verification: Verification, over: Partial<Incident> = {}): Incident {
  return buildAnalysedIncident({ state: 'fixed', decision, fix, verification, ...over });
}

const cardText = (incident: Incident) => JSON.stringify(presentChannelCard({ incident }).blocks);
const statusField = (incident: Incident) => JSON.stringify(presentChannelCard({ incident }).blocks.find((b) => b.block_id === 'medic_fields'));

describe('status words for the watch of a merged fix', () => {
  it('says how far the merged fix got, from the merge to the window’s end', () => {
    expect(plainStatusWord(fixed(watch({})))).toBe('Awaiting merge');
    expect(plainStatusWord(fixed(watch({ status: 'awaiting_deploy', ...merged })))).toBe('Merged — awaiting deploy');
    expect(plainStatusWord(fixed(watch({ status: 'watching', ...deployed })))).toBe('Merged — watching until 14:40');
    expect(statusField(fixed(watch({ status: 'watching', ...deployed })))).toContain('👀 Merged — watching until 14:40');
  });

  it('keeps failed checks in front of the merge wait', () => {
    expect(plainStatusWord(fixed(watch({}), { fix: { ...fix, checks: 'failure' } }))).toBe('Checks failed');
  });

  it('says "Resolved — verified" on a card closed by the verification, with what earned it', () => {
    const incident = fixed(watch({ status: 'verified', ...deployed, decidedAt: '2026-12-02T14:40:00.000Z', eventsSince: 0 }), { state: 'closed', resolution: { quietMinutes: 30, kind: 'verified' } });
    expect(presentStatusWord(incident)).toBe('✅ Resolved — verified');
    const text = cardText(incident);
    expect(text).toContain('no events of this family in the 30 min after the fix was deployed at 14:10 UTC (before: 120 / h)');
    expect(text).not.toContain('quiet minutes');
    expect(text).toContain('fix/inc-1-20261202140000');
    // A card closed as quiet keeps its own line.
    const quiet = buildAnalysedIncident({ state: 'closed', resolution: { quietMinutes: 45, kind: 'quiet' } });
    expect(plainStatusWord(quiet)).toBe('Closed');
    expect(cardText(quiet)).toContain('Resolved after 45 quiet minutes');
  });

  it('says "Still failing after fix" on the reopened card, the fix still linked', () => {
    const incident = fixed(watch({ status: 'still_failing', ...deployed, eventsSince: 34 }), { state: 'reported', proposal: undefined });
    expect(presentStatusWord(incident)).toBe('🔁 Still failing after fix');
    const text = cardText(incident);
    expect(text).toContain('34 events after the deploy at 14:10 UTC');
    expect(text).toContain('fix/inc-1-20261202140000');
    expect(text).toContain('PR #12');
  });

  it('says "Regressed" when a verified family came back and reopened the incident', () => {
    const incident = fixed(watch({ status: 'verified', ...deployed }), {
      state: 'reported', proposal: undefined, resolution: undefined,
      regressions: [{ at: '2026-12-02T15:21:00.000Z', firstEventAt: '2026-12-02T15:20:00.000Z', afterBranch: fix.branch }],
    });
    expect(presentStatusWord(incident)).toBe('↩️ Regressed');
    expect(cardText(incident)).toContain('came back at 15:20 UTC, after fix `fix/inc-1-20261202140000`');
  });

  it('never says "Fixed", and the terminal column fits the longest word', () => {
    expect(Object.values(VERIFICATION_WORDS).map((w) => w.word).join(' ')).not.toMatch(/\bfixed\b/i);
    const line = presentIncidentLine({ incident: fixed(watch({ status: 'watching', ...deployed })) });
    expect(line).toContain('Merged — watching until 14:40 ');
    expect('Merged — watching until 14:40'.length).toBeLessThanOrEqual(STATUS_WORD_WIDTH);
  });
});

describe('verification replies in the thread', () => {
  it('announces the merge and what is watched next', () => {
    const awaiting = presentVerificationReply({ incident: fixed(watch({ status: 'awaiting_deploy', ...merged })) }, 'merged');
    expect(awaiting.text).toBe('🔀 *Merged* `fix/inc-1-20261202140000` at 14:02 UTC (<https://github.example/shop/pull/12|PR #12>) — watching the family for 30 min after the deploy.');
    expect(awaiting.blocks).toHaveLength(1);
    expect(awaiting.image).toBeUndefined();
    // With no deploy marker the merge is the deploy, and the window's end is known.
    const watching = presentVerificationReply({ incident: fixed(watch({ status: 'watching', ...merged, deployedAt: merged.mergedAt })) }, 'merged');
    expect(watching.text).toContain('watching the family for 30 min, until 14:32 UTC');
  });

  it('announces the deploy', () => {
    const reply = presentVerificationReply({ incident: fixed(watch({ status: 'watching', ...deployed, deployMarker: 'GitHub deployment to production' })) }, 'deployed');
    expect(reply.text).toBe('🚀 *Deployed* at 14:10 UTC (GitHub deployment to production) — `fix/inc-1-20261202140000` is live; the family must stay quiet for 30 min, until 14:40 UTC.');
  });

  it('gives the verdicts with their numbers, and carries the chart when there is one', () => {
    const image = { pngBase64: 'iVBORw0KGgo=', filename: 'verification.png', title: 'Events before and after the fix', altText: 'chart' };
    const verified = presentVerificationReply({ incident: fixed(watch({ status: 'verified', ...deployed })) }, 'verified', image);
    expect(verified.text).toContain('*Resolved — verified* — no “PaymentTimeoutException: gateway did not answer in 5000ms” events in 30 min since the fix was deployed at 14:10 UTC (before: 120 / h)');
    expect(verified.image).toEqual(image);
    const failing = presentVerificationReply({ incident: fixed(watch({ status: 'still_failing', ...deployed, eventsSince: 34 }), { state: 'reported' }) }, 'still-failing');
    expect(failing.text).toContain('*Still failing* — 34 events since the deploy at 14:10 UTC; the incident is open again with the fix `fix/inc-1-20261202140000`');
    const back = fixed(watch({ status: 'verified', ...deployed }), { state: 'reported', regressions: [{ at: '2026-12-02T15:21:00.000Z', firstEventAt: '2026-12-02T15:20:00.000Z', afterBranch: fix.branch }] });
    expect(presentVerificationReply({ incident: back }, 'regressed').text).toBe('↩️ *Regressed* — first event at 15:20 UTC, after fix `fix/inc-1-20261202140000`; the incident is open again.');
  });

  it('escapes the title, which comes from the logs', () => {
    const incident = fixed(watch({ status: 'verified', ...deployed }), { title: 'boom <!channel> *bold* <https://evil|docs>', displayTitle: 'boom <!channel> *bold* <https://evil|docs>' });
    const text = presentVerificationReply({ incident }, 'verified').text;
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<https://evil');
    expect(text).toContain('&lt;!channel&gt;');
    expect(text).not.toContain(' *bold* ');
  });
});
