/* eslint-disable @typescript-eslint/no-explicit-any -- Block Kit is JSON; tests read it freely. */
/** The one mrkdwn escaper, the exact diff pages, the details modal and the reject modal's escaping. */
import { describe, expect, it } from 'vitest';
import { createFixProposal } from '../../src/domain/fix.js';
import { presentDetailsModal } from '../../src/presenters/details-modal.js';
import { CONTINUES, diffFitsCard, diffPages } from '../../src/presenters/diff-pages.js';
import { INERT, clipProse, escapeText, plain, untrusted } from '../../src/presenters/mrkdwn.js';
import { presentRejectModal } from '../../src/presenters/reject-modal.js';
import { presentThreadDiff } from '../../src/presenters/thread-diff.js';
import { showInvisible } from '../../src/presenters/visible-text.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';

const fences = (text: string) => (text.match(/```/g) ?? []).length;

describe('the mrkdwn escaper', () => {
  it('makes *, _, ~ and ` inert and escapes &, < and > once', () => {
    expect(escapeText('a *b* _c_ ~d~ `e` <f> & g')).toBe(`a ${INERT}*${INERT}b${INERT}*${INERT} ${INERT}_${INERT}c${INERT}_${INERT} ${INERT}~${INERT}d${INERT}~${INERT} ${INERT}\`${INERT}e${INERT}\`${INERT} &lt;f&gt; &amp; g`);
    expect(untrusted('```rm -rf```', 100)).not.toContain('```');
  });

  it('never cuts a doc excerpt inside a fence', () => {
    const excerpt = `Symptom: checkout fails.\n\`\`\`\nRangeError: Invalid discount\n    at spreadDiscount\n\`\`\`\nFix: guard the count.`;
    const cut = clipProse(excerpt, 50);
    expect(fences(cut) % 2).toBe(0);
    expect(cut.endsWith('…')).toBe(true);
    const modal = presentDetailsModal({ incident: buildAnalysedIncident({ similarDocs: [{ id: 'd', title: 'Doc', excerpt, source: 'docs/a.md', similarity: 0.9 }] }) });
    const docs = (modal.blocks as any[]).find((b) => b.block_id === 'medic_docs').text.text as string;
    expect(fences(docs)).toBe(0);
  });

  it("shows a doc's code whole in View details, and still redacts its prose", () => {
    const excerpt = 'Refunds: the token is Zx9QwErTy81.\n```ts\nconst pwd = eval(input);\nauthorizationId: body.authorization?.authorizationId ?? null,\n```\nSee `token = req.headers.token`.';
    const incident = buildAnalysedIncident({ similarDocs: [{ id: 'd', title: 'Doc', excerpt, source: 'docs/a.md', similarity: 0.9 }] });
    const docs = ((presentDetailsModal({ incident }).blocks as any[]).find((b) => b.block_id === 'medic_docs').text.text as string).replace(new RegExp(INERT, 'g'), '');
    for (const code of ['const pwd = eval(input);', 'authorizationId: body.authorization?.authorizationId ?? null,', 'token = req.headers.token']) expect(docs).toContain(code);
    expect(docs).not.toContain('Zx9QwErTy81');
  });

  it('escapes a plain_text title exactly once (the reject modal)', () => {
    const modal = presentRejectModal({ incidentId: 'inc-1', proposalHash: 'h' }, 'Checkout <*> failed & retried');
    const text = JSON.stringify(modal.blocks);
    expect(text).toContain('Checkout &lt;*&gt; failed &amp; retried');
    expect(text).not.toContain('&amp;lt;');
    expect(plain('<*>', 10)).toBe('&lt;*&gt;');
  });
});

describe('the diff an approver reads', () => {
  it('shows invisible and control characters as ⟨U+XXXX⟩ and keeps newlines and tabs', () => {
    expect(showInvisible('a\u200bb\u202ec\r\u0000\td\ne\u00a0f\u{E0041}')).toBe('a⟨U+200B⟩b⟨U+202E⟩c⟨U+000D⟩⟨U+0000⟩\td\ne⟨U+00A0⟩f⟨U+E0041⟩');
  });

  it('pages a long diff whole: every line, in order, none cut, within the section limit', () => {
    const after = Array.from({ length: 600 }, (_, i) => `const v${i} = "${'y'.repeat(40)}"; // <&>`).join('\n') + `\n${'z'.repeat(7_000)}\n`;
    const proposal = createFixProposal({ file: 'src/big.ts', before: 'x\n', after, explanation: 'big' });
    expect(diffFitsCard(proposal)).toBe(false);
    const pages = diffPages(proposal);
    for (const page of pages) expect(page.length + 6).toBeLessThanOrEqual(3_000);
    const shown = pages.join('\n').split(`${CONTINUES}\n`).join('').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const expected = proposal.diff.split('\n').filter((l) => !l.startsWith('Index: ') && !/^=+$/.test(l)).join('\n').trimEnd();
    expect(shown).toBe(expected);
    const messages = presentThreadDiff(buildAnalysedIncident({ proposal }));
    expect(messages.length).toBeGreaterThan(1);
    expect(messages[0]!.blocks[0]!.text).toMatchObject({ text: expect.stringContaining(`part 1 of ${messages.length}`) });
    for (const m of messages) expect(JSON.stringify(m.blocks).length).toBeLessThan(13_000);
  });

  it('puts the whole diff and the whole analysis in the View details modal, with no submit button', () => {
    const modal = presentDetailsModal({ incident: buildAnalysedIncident() }) as any;
    expect(modal.submit).toBeUndefined();
    expect(modal.title.text.length).toBeLessThanOrEqual(24);
    const text = JSON.stringify(modal.blocks);
    for (const part of ['Evidence', 'Contributing factors', 'Similar docs', 'Recommendation', '+export const RETRIES = 2;']) expect(text).toContain(part);
    expect(modal.blocks.length).toBeLessThanOrEqual(100);
  });
});

describe('plain_text limits', () => {
  it('keeps a header within 150 characters even when escaping lengthens it', () => {
    expect(plain('&'.repeat(400), 150).length).toBeLessThanOrEqual(150);
    expect(plain('&'.repeat(400), 150)).not.toMatch(/&(a|am|amp)?…$/);
  });
});
