/* eslint-disable @typescript-eslint/no-explicit-any -- Slack payloads are JSON documents; tests read and reshape them freely. */
/** The incident card presenter: structure, limits and untrusted text, without snapshots. */
import { describe, expect, it } from 'vitest';
import { LIMITS, measureText } from '../../src/presenters/block-limits.js';
import { escapeMrkdwn, presentIncidentCard } from '../../src/presenters/incident-card.js';
import { presentThreadReply } from '../../src/presenters/thread-reply.js';
import { buildAnalysedIncident, buildIncident } from '../fixtures/slack/build-incident.js';
import type { Incident } from '../../src/domain/incident.js';

type Block = Record<string, any>;
const card = (incident: Incident) => {
  const message = presentIncidentCard({ incident });
  return { text: message.text, blocks: message.blocks as Block[] };
};
const all = (blocks: Block[]) => JSON.stringify(blocks);
const byId = (blocks: Block[], id: string) => blocks.find((b) => b.block_id === id);
const texts = (blocks: Block[]): string[] => blocks.flatMap((b) => [b.text?.text, ...(b.elements ?? []).map((e: Block) => e.text?.text ?? e.text)]).filter((t): t is string => typeof t === 'string');

function assertWithinLimits(blocks: Block[]) {
  expect(blocks.length).toBeLessThanOrEqual(LIMITS.blocks);
  expect(measureText(blocks)).toBeLessThanOrEqual(LIMITS.totalText);
  for (const b of blocks) {
    if (b.type === 'section') expect(b.text.text.length).toBeLessThanOrEqual(LIMITS.sectionText);
    if (b.type === 'header') expect(b.text.text.length).toBeLessThanOrEqual(LIMITS.headerText);
    for (const e of b.elements ?? []) if (e.type === 'button') expect(e.value.length).toBeLessThanOrEqual(LIMITS.buttonValue);
  }
}

describe('presentIncidentCard', () => {
  it('shows service and severity, root cause with confidence, factors, recommendation', () => {
    const { blocks, text } = card(buildAnalysedIncident());
    expect(blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text', text: expect.stringContaining('checkout · ERROR') } });
    expect(byId(blocks, 'medic_rca')?.text.text).toMatch(/Root cause\* · confidence 86%/);
    expect(all(blocks)).toContain('No retries on idempotent calls');
    expect(byId(blocks, 'medic_recommendation')?.text.text).toContain('risk low');
    expect(text).toContain('checkout');
  });

  it('cites only the evidence lines the RCA names', () => {
    const evidence = byId(card(buildAnalysedIncident()).blocks, 'medic_evidence')!.text.text as string;
    expect(evidence).toContain('log-1');
    expect(evidence).toContain('log-2');
    expect(evidence).not.toContain('log-0');
  });

  it('shows similar docs with similarity marked approximate', () => {
    const docs = byId(card(buildAnalysedIncident()).blocks, 'medic_docs')!.text.text as string;
    expect(docs).toContain('approximate');
    expect(docs).toContain('~82%');
  });

  it('previews the diff and says how to see all of it; a long diff is cut on a line boundary', () => {
    const short = card(buildAnalysedIncident()).blocks;
    expect(byId(short, 'medic_diff')!.text.text).toContain('+export const TIMEOUT_MS = 15000;');
    expect(all(short)).toContain('npm run medic -- show inc-checkout-1');
    const base = buildAnalysedIncident();
    const diff = Array.from({ length: 400 }, (_, i) => `+line ${i} ${'x'.repeat(60)}`).join('\n');
    const long = card({ ...base, proposal: { ...base.proposal!, diff } }).blocks;
    const preview = byId(long, 'medic_diff')!.text.text as string;
    expect(preview).toMatch(/\+line \d+ x+```$/);
    expect(all(long)).toMatch(/Diff truncated: \d+ of 400 lines shown/);
    expect(all(long)).toContain('/medic status inc-checkout-1');
  });

  it('carries only incidentId and proposalHash in the Approve/Reject values; Approve asks to confirm', () => {
    const incident = buildAnalysedIncident();
    const actions = byId(card(incident).blocks, 'medic_decision')!;
    const [approve, reject] = actions.elements as Block[];
    expect(JSON.parse(approve!.value)).toEqual({ incidentId: incident.id, proposalHash: incident.proposal!.contentHash });
    expect(approve).toMatchObject({ style: 'primary', confirm: { confirm: { text: 'Approve' } } });
    expect(reject).toMatchObject({ style: 'danger', action_id: 'medic_reject' });
  });

  it('offers feedback on the RCA, and on the fix once there is one', () => {
    expect(byId(card(buildAnalysedIncident()).blocks, 'medic_feedback_rca')).toBeDefined();
    const fixed = buildAnalysedIncident({ state: 'fixed', fix: { branch: 'fix/a-1', commit: 'abc', pushStatus: 'pushed' } });
    expect(byId(card(fixed).blocks, 'medic_feedback_fix')).toBeDefined();
  });

  it('shows progress as the analysis moves: ✓ done, ⏳ running, · pending', () => {
    const steps = { intake: { at: 'x' }, 'log-window': { at: 'x' } };
    const progress = all(card(buildIncident({ state: 'analyzing', steps })).blocks);
    expect(progress).toContain('✓ logs  ⏳ similar docs  · recent changes  · RCA');
    expect(progress).toContain('Analysing');
  });

  it.each([
    [{ state: 'approved', decision: { verdict: 'approved', actor: { kind: 'user', id: 'U0APPROVER' }, proposalHash: 'h', at: 't' } }, /Approved by <@U0APPROVER>/],
    [{ state: 'fixing', decision: { verdict: 'approved', actor: { kind: 'operator', id: 'local-operator' }, proposalHash: 'h', at: 't' } }, /Approved by local-operator\* — pushing…/],
    [{ state: 'fixed', fix: { branch: 'fix/inc-1-20240309160000', commit: 'c', pushStatus: 'pushed', pullRequest: { number: 7, url: 'https://github.example/o/r/pull/7' } } }, /branch `fix\/inc-1-20240309160000`, PR <https:\/\/github.example\/o\/r\/pull\/7\|#7>/],
    [{ state: 'fix_failed', error: 'the file changed since the proposal' }, /Fix failed\* — the file changed since the proposal/],
    [{ state: 'rejected', decision: { verdict: 'rejected', actor: { kind: 'user', id: 'U0APPROVER' }, proposalHash: 'h', at: 't', reason: 'wrong file' } }, /Rejected by <@U0APPROVER>\*: wrong file/],
    [{ state: 'reported', proposal: undefined, proposalNote: 'confidence below 0.7' }, /no fix proposed.*confidence below 0.7/],
  ] as [Partial<Incident>, RegExp][])('outcome for %j', (over, expected) => {
    const blocks = card(buildAnalysedIncident(over)).blocks;
    expect(byId(blocks, 'medic_outcome')!.text.text).toMatch(expected);
    expect(byId(blocks, 'medic_decision')).toBeUndefined();
  });

  it('escapes and redacts every untrusted text: no pings, no forged links, no secrets', () => {
    const evil = '<!channel> @here <https://evil.example|Open the runbook> & token xoxb-1234567890-abcdefghij AKIAABCDEFGHIJKLMNOP';
    const base = buildAnalysedIncident();
    const incident = buildAnalysedIncident({
      title: evil,
      service: `svc ${evil}`,
      logs: { ...base.logs!, entries: base.logs!.entries.map((e) => ({ ...e, message: evil })) },
      rca: { ...base.rca!, rootCause: evil, contributingFactors: [evil] },
      similarDocs: [{ ...base.similarDocs![0]!, title: evil, excerpt: evil }],
      recommendation: { ...base.recommendation!, summary: evil, steps: [evil] },
      proposal: { ...base.proposal!, diff: `+${evil}\n\`\`\`\n<!everyone>`, explanation: evil },
      fix: { branch: 'fix/x', commit: 'c', pushStatus: 'pushed', pullRequest: { number: 1, url: 'javascript:alert(1)|x>' } },
    });
    const { blocks, text } = card(incident);
    const out = [text, ...texts(blocks)].join('\n');
    expect(out).not.toMatch(/<!(channel|here|everyone)>/);
    expect(out).not.toContain('<https://evil.example');
    expect(out).not.toMatch(/(^|[^\u2060])@here/);
    expect(out).not.toContain('xoxb-1234567890');
    expect(out).not.toContain('AKIAABCDEFGHIJKLMNOP');
    expect(out).toContain('&lt;!channel&gt;');
    expect(out).toContain('[REDACTED:slack-token]');
    for (const b of blocks) if (b.text?.type === 'mrkdwn') expect(b.text.verbatim).toBe(true);
    // The diff's own ``` cannot close the code fence early.
    expect((byId(blocks, 'medic_diff')!.text.text as string).match(/```/g)).toHaveLength(2);
  });

  it('stays within Block Kit limits for a huge incident', () => {
    const base = buildAnalysedIncident();
    const huge = buildAnalysedIncident({
      title: 'T'.repeat(5_000),
      logs: { ...base.logs!, note: 'n'.repeat(5_000), entries: Array.from({ length: 500 }, (_, i) => ({ id: `log-${i}`, time: base.logs!.from, level: 'ERROR', service: 's', message: '&<>'.repeat(2_000) })) },
      rca: { ...base.rca!, rootCause: 'r'.repeat(2_000), contributingFactors: Array.from({ length: 10 }, () => 'f'.repeat(500)), evidenceIds: Array.from({ length: 30 }, (_, i) => `log-${i}`) },
      similarDocs: Array.from({ length: 50 }, (_, i) => ({ id: `d${i}`, title: 't'.repeat(500), excerpt: 'e'.repeat(5_000), source: 's'.repeat(500), similarity: 0.5 })),
      recommendation: { ...base.recommendation!, summary: 's'.repeat(1_000), steps: Array.from({ length: 10 }, () => 's'.repeat(500)) },
      proposal: { ...base.proposal!, file: 'f'.repeat(512), diff: Array.from({ length: 5_000 }, () => `+${'<'.repeat(300)}`).join('\n'), explanation: 'x'.repeat(2_000) },
      proposalNote: 'p'.repeat(5_000),
    });
    const { blocks, text } = card(huge);
    assertWithinLimits(blocks);
    expect(text.length).toBeLessThanOrEqual(3_000);
    expect(byId(blocks, 'medic_decision')).toBeDefined();
    expect(byId(blocks, 'medic_outcome')).toBeDefined();
  });

  it('escapeMrkdwn escapes exactly &, < and >', () => {
    expect(escapeMrkdwn('a & <b> *c*')).toBe('a &amp; &lt;b&gt; *c*');
  });
});

describe('presentThreadReply', () => {
  const fixed = buildAnalysedIncident({
    state: 'fixed',
    decision: { verdict: 'approved', actor: { kind: 'user', id: 'U0APPROVER' }, proposalHash: 'h', at: 't' },
    fix: { branch: 'fix/inc-checkout-1-20240309160000', commit: '0123456789abcdef', pushStatus: 'pushed', pullRequest: { number: 12, url: 'https://github.example/o/r/pull/12' }, checks: 'failure' },
  });

  it.each([
    ['branch', /Pushed branch `fix\/inc-checkout-1-20240309160000` \(commit `0123456789ab`\)/],
    ['pull-request', /Draft PR <https:\/\/github.example\/o\/r\/pull\/12\|#12> opened/],
    ['checks', /Checks on .*: \*failure\*/],
    ['approved', /Approved by <@U0APPROVER>/],
  ] as const)('%s', (event, expected) => {
    const { text, blocks } = presentThreadReply({ incident: fixed }, event);
    expect(text).toMatch(expected);
    expect(blocks).toHaveLength(1);
  });

  it('explains a failed fix with the escaped reason and how to re-run', () => {
    const failed = buildAnalysedIncident({ state: 'fix_failed', error: 'push refused <!channel>' });
    expect(presentThreadReply({ incident: failed }, 'fix-failed').text).toMatch(/push refused &lt;!channel&gt;.*\/medic fix inc-checkout-1/);
  });
});

describe('presentIncidentCard for storms', () => {
  it('names the incident a recurrence links to, and words the overflow incident as such', () => {
    const recurrence = presentIncidentCard({ incident: buildAnalysedIncident({ previousIncidentId: 'inc-old-1' }) });
    expect(JSON.stringify(recurrence.blocks)).toContain('Recurrence of `inc-old-1`');
    const overflow = presentIncidentCard({ incident: buildAnalysedIncident({ state: 'reported', fingerprint: 'overflow:2026113009', proposalNote: '5 event families suppressed this hour' }) });
    expect(JSON.stringify(overflow.blocks)).toContain('Storm overflow');
  });
});
