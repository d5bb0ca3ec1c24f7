/* eslint-disable @typescript-eslint/no-explicit-any -- Slack payloads are JSON documents; tests read and reshape them freely. */
/** The incident card presenter: structure, limits and untrusted text, without snapshots. */
import { describe, expect, it } from 'vitest';
import { LIMITS, measureText } from '../../src/presenters/block-limits.js';
import { escapeMrkdwn, presentIncidentCard } from '../../src/presenters/incident-card.js';
import { presentThreadReply } from '../../src/presenters/thread-reply.js';
import { presentDetailsModal } from '../../src/presenters/details-modal.js';
import { buildAnalysedIncident, buildIncident } from '../fixtures/slack/build-incident.js';
import type { Incident } from '../../src/domain/incident.js';
import { createFixProposal } from '../../src/domain/fix.js';

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
    if (b.type === 'section' && b.text) expect(b.text.text.length).toBeLessThanOrEqual(LIMITS.sectionText);
    for (const f of b.fields ?? []) expect(f.text.length).toBeLessThanOrEqual(2_000);
    if (b.type === 'header') expect(b.text.text.length).toBeLessThanOrEqual(LIMITS.headerText);
    for (const e of b.elements ?? []) if (e.type === 'button') expect(e.value.length).toBeLessThanOrEqual(LIMITS.buttonValue);
  }
}

describe('presentIncidentCard', () => {
  it('is compact: a header with severity and service, a fields summary, the root cause, the diff and the buttons', () => {
    const incident = buildAnalysedIncident({ recentChanges: [{ sha: 'a1b2c3d4e5f6', author: 'dev', date: '2024-03-09', subject: 'tighten timeouts', files: ['src/payments/gateway-client.ts'] }] });
    const { blocks, text } = card(incident);
    expect(blocks[0]).toMatchObject({ type: 'header', block_id: 'medic_title', text: { type: 'plain_text', text: expect.stringMatching(/ERROR · checkout — \S/) } });
    const fields = (byId(blocks, 'medic_fields')!.fields as Block[]).map((f) => f.text as string);
    expect(fields).toEqual([expect.stringMatching(/^\*Status\*\n.*Awaiting approval/), expect.stringMatching(/^\*Events\*/), expect.stringMatching(/^\*Confidence\*\n86%/), expect.stringContaining('`a1b2c3d`')]);
    expect(byId(blocks, 'medic_rca')?.text.text).toContain('client timeout fires first');
    expect(blocks.length).toBeLessThanOrEqual(15);
    // Approve / Reject / View details sit right under the diff and its check's one line.
    const ids = blocks.map((b) => b.block_id);
    expect(ids.slice(ids.indexOf('medic_diff'), ids.indexOf('medic_diff') + 3)).toEqual(['medic_diff', 'medic_check', 'medic_decision']);
    expect(text).toContain('checkout');
  });

  it("names the catalog's service in the header and the log's own name for it as such", () => {
    const base = buildAnalysedIncident({ service: 'gateway', route: { service: 'shop', known: true, channel: 'C1', repository: 'sample-service', owner: 'team-shop' } });
    const { blocks, text } = card(base);
    expect(byId(blocks, 'medic_title')!.text.text).toMatch(/ERROR · shop — /);
    expect(text).toMatch(/^Medic \w+ incident in shop: /);
    expect(all([byId(blocks, 'medic_context')!])).toContain('service `shop` · logged as `gateway` · 📁 `sample-service` · owner team-shop');
    // Unknown to the catalog, the log's name is the service.
    const unknown = card(buildAnalysedIncident({ service: 'gateway', route: { service: 'gateway', known: false, channel: 'C1' } }));
    expect(byId(unknown.blocks, 'medic_title')!.text.text).toMatch(/ERROR · gateway — /);
    expect(all(unknown.blocks)).not.toContain('logged as');
  });

  it('keeps evidence, factors, similar docs, recent changes and the recommendation for View details', () => {
    const { blocks } = card(buildAnalysedIncident());
    for (const id of ['medic_evidence', 'medic_docs', 'medic_recommendation']) expect(byId(blocks, id)).toBeUndefined();
    expect(all(blocks)).not.toContain('No retries on idempotent calls');
    expect(byId(blocks, 'medic_decision')!.elements.map((e: Block) => e.text.text)).toEqual(['Approve', 'Reject', 'View details', '👍 root cause', '👎 root cause']);
  });

  it('shows the title with its values instead of the template\'s <*>, in the plain-text header where nothing formats', () => {
    const firstEvent = { ...buildIncident().firstEvent, message: 'Checkout v2 failed for order 991 ``` _x_ ~y~ <!channel>' };
    const title = card(buildAnalysedIncident({ title: 'Checkout <*> failed for order <*> ``` _x_ ~y~ <*>', firstEvent })).blocks;
    const header = byId(title, 'medic_title')!;
    expect(header).toMatchObject({ type: 'header', text: { type: 'plain_text' } });
    const text = header.text.text as string;
    expect(text).toMatch(/^\S+ ERROR · checkout — Checkout v2 failed for order 991 /);
    expect(text).not.toContain('<*>');
    expect(text).not.toContain('<!channel>');
    expect(text.length).toBeLessThanOrEqual(150);
  });

  it('keeps the family template for View details', () => {
    const firstEvent = { ...buildIncident().firstEvent, message: 'Payment declined for order 1234' };
    const incident = buildAnalysedIncident({ title: 'Payment declined for order <*>', family: { groupId: 'g1', template: 'Payment declined for order <*>' }, firstEvent });
    const modal = JSON.stringify(presentDetailsModal({ incident }));
    expect(modal).toContain('Payment declined for order 1234');
    expect(modal).toContain('Family template: `Payment declined for order &lt;*&gt;`');
  });

  it('shows a short diff whole on the card; a long one as a preview that points to the thread', () => {
    const short = card(buildAnalysedIncident()).blocks;
    expect(byId(short, 'medic_diff')!.text.text).toContain('+export const TIMEOUT_MS = 15000;');
    expect(byId(short, 'medic_diff')!.text.text).toMatch(/^\*Proposed fix\* · `src\/[^`]+` · \+\d+ −\d+ · whole diff shown \(\d+ lines?\)\n/);
    expect(byId(short, 'medic_diff_note')).toBeUndefined();
    const base = buildAnalysedIncident();
    const after = Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(60)}`).join('\n');
    const long = card({ ...base, proposal: createFixProposal({ file: 'src/a.ts', before: 'a\n', after, explanation: 'long' }) }).blocks;
    const preview = byId(long, 'medic_diff')!.text.text as string;
    expect(preview).toMatch(/\+line \d+ x+```$/);
    expect(byId(long, 'medic_diff_note')!.elements[0].text).toMatch(/Showing \d+ of \d+ lines — the whole diff is in the thread/);
    expect(JSON.stringify(byId(long, 'medic_decision'))).toContain("posted whole in this card's thread");
  });

  it('shows invisible characters of the diff instead of hiding them, and flags secret-shaped lines without masking them', () => {
    const base = buildAnalysedIncident();
    const proposal = createFixProposal({ file: 'src/a.ts', before: 'a\n', after: 'a\u200b\nconst k = "AKIAABCDEFGHIJKLMNOP";\n', explanation: 'x' });
    const blocks = card({ ...base, proposal }).blocks;
    const diff = byId(blocks, 'medic_diff')!.text.text as string;
    expect(diff).toContain('+a⟨U+200B⟩');
    expect(diff).not.toContain('a\u200b');
    expect(diff).toContain('AKIAABCDEFGHIJKLMNOP');
    const note = byId(blocks, 'medic_diff_note')!.elements[0].text as string;
    expect(note).toMatch(/1 invisible or control character/);
    expect(note).toMatch(/look like a secret/);
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
    // Awaiting approval, the 👍/👎 share the decision's row; once decided they sit beside View details.
    expect(all([byId(card(buildAnalysedIncident()).blocks, 'medic_decision')!])).toContain('medic_feedback_rca_up');
    const fixed = buildAnalysedIncident({ state: 'fixed', fix: { branch: 'fix/a-1', commit: 'abc', pushStatus: 'pushed' } });
    expect(all([byId(card(fixed).blocks, 'medic_more')!])).toContain('medic_feedback_fix_down');
  });

  it('shows progress as the analysis moves: ✓ done, ⏳ running, · pending', () => {
    const steps = { intake: { at: 'x' }, 'log-window': { at: 'x' } };
    const progress = all(card(buildIncident({ state: 'analyzing', steps })).blocks);
    expect(progress).toContain('✓ logs  ⏳ similar docs  · recent changes  · RCA');
    expect(progress).toContain('Analysing');
    expect(progress).not.toContain('medic_approve');
  });

  it.each([
    [{ state: 'approved', decision: { verdict: 'approved', actor: { kind: 'user', id: 'U0APPROVER' }, proposalHash: 'h', at: 't' } }, /Approved — pushing\* — approved by <@U0APPROVER>/],
    [{ state: 'fixing', decision: { verdict: 'approved', actor: { kind: 'operator', id: 'local-operator' }, proposalHash: 'h', at: 't' } }, /Approved — pushing\* — approved by local-operator/],
    [{ state: 'fixed', fix: { branch: 'fix/inc-1-20240309160000', commit: 'c', pushStatus: 'pushed', pullRequest: { number: 7, url: 'https://github.example/o/r/pull/7' } } }, /Draft PR opened\* — draft PR <https:\/\/github.example\/o\/r\/pull\/7\|#7> from branch `fix\/inc-1-20240309160000`/],
    [{ state: 'fixed', fix: { branch: 'fix/inc-1-20240309160000', commit: 'c', pushStatus: 'pushed' } }, /Branch pushed\* — branch `fix\/inc-1-20240309160000` — no PR opened/],
    [{ state: 'fixed', fix: { branch: 'fix/b', commit: 'c', pushStatus: 'pushed', pullRequest: { number: 7, url: 'https://github.example/o/r/pull/7' }, checks: 'success' } }, /Checks passed\*/],
    [{ state: 'fixed', fix: { branch: 'fix/b', commit: 'c', pushStatus: 'pushed', pullRequest: { number: 7, url: 'https://github.example/o/r/pull/7' }, checks: 'failure' } }, /Checks failed\*/],
    [{ state: 'fix_failed', error: 'the file changed since the proposal' }, /Fix failed\* — the file changed since the proposal/],
    [{ state: 'rejected', decision: { verdict: 'rejected', actor: { kind: 'user', id: 'U0APPROVER' }, proposalHash: 'h', at: 't', reason: 'wrong file' } }, /Rejected\* by <@U0APPROVER>: wrong file/],
    [{ state: 'reported', proposal: undefined, proposalNote: 'confidence below 0.7' }, /^ℹ️ confidence below 0.7$/],
  ] as [Partial<Incident>, RegExp][])('outcome for %j', (over, expected) => {
    const blocks = card(buildAnalysedIncident(over)).blocks;
    expect(byId(blocks, 'medic_outcome')!.text.text).toMatch(expected);
    expect(all(blocks)).not.toMatch(/Fixed/);
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
    // The diff is the one text shown exactly (never masked): it is checked on its own below.
    const out = [text, ...texts(blocks.filter((b) => b.block_id !== 'medic_diff'))].join('\n');
    expect(out).not.toMatch(/<!(channel|here|everyone)>/);
    expect(out).not.toContain('<https://evil.example');
    expect(out).not.toMatch(/(^|[^\u2060])@here/);
    expect(out).not.toContain('xoxb-1234567890');
    expect(out).not.toContain('AKIAABCDEFGHIJKLMNOP');
    expect(out).toContain('&lt;!channel&gt;');
    expect(out).toContain('[REDACTED:slack-token]');
    for (const b of blocks) if (b.text?.type === 'mrkdwn') expect(b.text.verbatim).toBe(true);
    // The diff's own ``` cannot close the code fence early, and it pings nobody.
    const diff = byId(blocks, 'medic_diff')!.text.text as string;
    expect(diff.match(/```/g)).toHaveLength(2);
    expect(diff).not.toMatch(/<!(channel|here|everyone)>/);
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
    expect(byId(blocks, 'medic_fields')).toBeDefined();
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
    ['branch', /Branch pushed\* — `fix\/inc-checkout-1-20240309160000` \(commit `0123456789ab`\)/],
    ['pull-request', /Draft PR opened\* — <https:\/\/github.example\/o\/r\/pull\/12\|#12> from/],
    ['checks', /Checks failed\* on `fix\//],
    ['approved', /Approved — pushing\* — approved by <@U0APPROVER>/],
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
    expect(JSON.stringify(recurrence.blocks)).toContain('recurrence of `inc-old-1`');
    const overflow = presentIncidentCard({ incident: buildAnalysedIncident({ state: 'reported', fingerprint: 'overflow:2026113009', proposalNote: '5 event families suppressed this hour' }) });
    expect(JSON.stringify(overflow.blocks)).toContain('Storm overflow');
  });
});
