/* eslint-disable @typescript-eslint/no-explicit-any -- Slack blocks are JSON documents; tests read them freely. */
import { describe, expect, it } from 'vitest';
import type { SimilarDoc } from '../../src/domain/analysis.js';
import { documentedFix, joinSoftBreaks, presentDocFix } from '../../src/presenters/card-doc-fix.js';
import { presentIncidentCard } from '../../src/presenters/incident-card.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';

const SOURCE = 'docs/payment-null-authorization.md';
const TITLE = 'Payments: missing authorization object on declined payments';
const doc = (heading: string, excerpt: string, similarity: number, source = SOURCE): SimilarDoc => ({ id: `doc-${heading}`, title: `${TITLE} — ${heading}`, excerpt, source, similarity });
const FIX = 'Read the field optionally and keep `null` when there is no authorization:\n`authorizationId: body.authorization?.authorizationId ?? null,`. Mark `authorization` optional.\n\n```ts\nconst token = "sk_live_0123456789abcdef0123";\n```';

describe('the documented fix of the family, on the card', () => {
  it("reads a document's wrapped paragraphs as paragraphs and keeps its code, lists, headings and blank lines", () => {
    const text = 'Return early\nwhen empty.\n\n- one\n  more\n- two\n## Next\nline\n```\ncode a\ncode b\n```\n| a |\n| b |';
    expect(joinSoftBreaks(text)).toBe('Return early when empty.\n\n- one more\n- two\n## Next\nline\n```\ncode a\ncode b\n```\n| a |\n| b |');
  });

  it("shows the nearest document's Fix section whole, its code as code, nothing redacted", () => {
    const incident = buildAnalysedIncident({ similarDocs: [doc('Symptom', 'TypeError …', 0.7), doc('Fix', FIX, 0.5)] });
    const block = (presentIncidentCard({ incident }).blocks as any[]).find((b) => b.block_id === 'medic_doc_fix');
    const text = block.text.text as string;
    expect(text).toContain(`📘 *Documented fix* · ${TITLE}: Read the field optionally`);
    // The document's soft line break reads as a space, as any Markdown reader shows it.
    expect(text).toContain('no authorization: `authorizationId: body.authorization?.authorizationId ?? null,`');
    expect(text).toContain('```\nconst token = "sk_live_0123456789abcdef0123";\n```');
    expect(text).not.toContain('The whole section');
  });

  it('shows nothing when the nearest document is no family, or has no fix section, or the fix is another document’s', () => {
    expect(documentedFix([doc('Fix', FIX, 0.2)])).toBeUndefined();
    expect(documentedFix([doc('Symptom', 'x', 0.7), doc('Cause', 'y', 0.6)])).toBeUndefined();
    expect(documentedFix([doc('Symptom', 'x', 0.7), doc('Fix', FIX, 0.6, 'docs/other.md')])).toBeUndefined();
    expect(documentedFix([doc('Overview', '## Remediation\nRestart the pool.', 0.7)])?.id).toBe('doc-Overview');
  });

  it('bounds a long fix at a line end, closes a fence it leaves open, and says where the rest is', () => {
    const long = `Steps:\n\`\`\`sh\n${Array.from({ length: 80 }, (_, i) => `step ${i} <@U123>`).join('\n')}\n\`\`\``;
    const [block] = presentDocFix(buildAnalysedIncident({ similarDocs: [doc('Resolution', long, 0.8)] })) as any[];
    const text = block.text.text as string;
    expect(text.length).toBeLessThan(1_500);
    expect(text).not.toContain('<@U123>');
    expect((text.match(/```/g) ?? []).length % 2).toBe(0);
    expect(text).toContain('```\nstep 0');
    expect(text).toContain(`The whole section is in ${SOURCE}`);
  });
});
