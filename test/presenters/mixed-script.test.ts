/* eslint-disable @typescript-eslint/no-explicit-any -- Block Kit is JSON; tests read it freely. */
/** Look-alike identifiers in a fix (`isAdmіn` with a Cyrillic і) are named on the card and in the thread. */
import { describe, expect, it } from 'vitest';
import { createFixProposal } from '../../src/domain/fix.js';
import { findMixedScriptIdentifiers } from '../../src/domain/untrusted/mixed-script.js';
import { presentIncidentCard } from '../../src/presenters/incident-card.js';
import { presentThreadDiff } from '../../src/presenters/thread-diff.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';

const LOOKALIKE = 'isAdm\u0456n'; // і: CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I

describe('mixed-script identifiers', () => {
  it('finds an identifier mixing scripts, and only those', () => {
    expect(findMixedScriptIdentifiers(`if (${LOOKALIKE}(user)) return;`)).toEqual([{ identifier: LOOKALIKE, scripts: ['Latin', 'Cyrillic'] }]);
    expect(findMixedScriptIdentifiers('const \u03c1assword = 1;')).toEqual([{ identifier: '\u03c1assword', scripts: ['Greek', 'Latin'] }]);
    // One script, or Latin with the scripts written together in Chinese, Japanese or Korean code.
    for (const ordinary of ['const café = 1;', 'const имяПользователя = 2;', 'let 用户Name = 3;', 'const ユーザー名 = 4;', 'const 사용자id = 5;', 'plain ascii only']) {
      expect(findMixedScriptIdentifiers(ordinary), ordinary).toEqual([]);
    }
  });

  it('is named on the card and in the thread, with the code point of the look-alike letter', () => {
    const before = 'export function isAdmin(u) {\n  return u.role === "admin";\n}\n';
    const after = `${before}export function ${LOOKALIKE}(u) {\n  return true;\n}\n`;
    const proposal = createFixProposal({ file: 'src/auth.js', before, after, explanation: 'x' });
    const incident = buildAnalysedIncident({ proposal });
    const note = (presentIncidentCard({ incident }).blocks as any[]).find((b) => b.block_id === 'medic_diff_note').elements[0].text as string;
    expect(note).toContain('1 added identifier mixes scripts');
    expect(note).toContain(`${LOOKALIKE} (Latin + Cyrillic; \u0456 U+0456)`);
    const thread = JSON.stringify(presentThreadDiff(incident)[0]!.blocks[0]);
    expect(thread).toContain('U+0456');
    // A removed look-alike is not a new one: only added lines are judged.
    const removed = createFixProposal({ file: 'src/auth.js', before: after, after: before, explanation: 'x' });
    const removedNote = (presentIncidentCard({ incident: buildAnalysedIncident({ proposal: removed }) }).blocks as any[]).find((b) => b.block_id === 'medic_diff_note');
    expect(removedNote).toBeUndefined();
  });
});
