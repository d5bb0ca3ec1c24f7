import { describe, expect, it } from 'vitest';
import { changeHunks } from '../../src/domain/change-hunks.js';
import { currentSpan, revertFailingHunks, revertHunks } from '../../src/code-search/revert-change.js';
import { isRecentSuspect } from '../../src/retrieval/find-suspect-commits.js';

const lines = (n: number, edit: (i: number) => string | undefined = () => undefined) => Array.from({ length: n }, (_, i) => edit(i + 1) ?? `line ${i + 1}`).join('\n') + '\n';

describe('revertHunks (every hunk of a change)', () => {
  const before = lines(30);
  const after = lines(30, (i) => (i === 10 ? 'line 10 changed' : undefined));
  const all = (current: string) => revertHunks({ before, after, current, hunks: changeHunks(before, after) });

  it('gives back the file before the commit when nothing changed it since', () => {
    expect(all(after)).toBe(before);
  });

  it('undoes only that change when later commits changed other lines', () => {
    const current = lines(30, (i) => (i === 10 ? 'line 10 changed' : i === 25 ? 'line 25 later' : undefined));
    expect(all(current)).toBe(lines(30, (i) => (i === 25 ? 'line 25 later' : undefined)));
  });

  it('finds the hunk where later insertions above it moved it', () => {
    const current = `added on top\n${after}`;
    expect(all(current)).toBe(`added on top\n${before}`);
  });

  it('refuses when later commits changed the same lines or their context, or when undoing changes nothing', () => {
    expect(all(lines(30, (i) => (i === 10 ? 'line 10 changed again' : undefined)))).toBeUndefined();
    expect(all(lines(30, (i) => (i === 9 ? 'line 9 moved on' : i === 10 ? 'line 10 changed' : undefined)))).toBeUndefined();
    expect(all(before)).toBeUndefined();
  });
});

describe('revertFailingHunks (the hunks at the failing lines)', () => {
  // Three separate changes: line 5 changed, lines 15–16 replaced by one line, line 28 deleted.
  const before = lines(30);
  const after = lines(30, (i) => (i === 5 ? 'line 5 new' : i === 15 ? 'lines 15 and 16 as one' : undefined))
    .split('\n')
    .filter((l) => l !== 'line 16' && l !== 'line 28')
    .join('\n');

  it('reads the change as three hunks, as git diff groups them', () => {
    expect(changeHunks(before, after).map((h) => [h.afterStart, h.afterEnd, h.removed, h.added])).toEqual([
      [4, 5, ['line 5'], ['line 5 new']],
      [14, 15, ['line 15', 'line 16'], ['lines 15 and 16 as one']],
      [26, 26, ['line 28'], []],
    ]);
  });

  it('undoes only the hunk holding a failing line and keeps the others', () => {
    const out = revertFailingHunks({ before, after, current: after, failingLines: [15] });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.after.split('\n').slice(13, 17)).toEqual(['line 14', 'line 15', 'line 16', 'line 17']);
    expect(out.after).toContain('line 5 new');
    expect(out.after).not.toContain('line 28');
    expect(out.reverted).toHaveLength(1);
    expect(out.kept.map((h) => currentSpan(h, { after, current: after }))).toEqual([{ start: 5, end: 5 }, { start: 27, end: 27 }]);
  });

  it('counts a failing line within three lines of a change, as the change’s own context', () => {
    // Line 27 (as the commit left it) is next to where line 28 was deleted: the deletion is undone.
    const out = revertFailingHunks({ before, after, current: after, failingLines: [25] });
    expect(out.ok && out.after.includes('line 28')).toBe(true);
    expect(out.ok && out.after.includes('line 5 new')).toBe(true);
  });

  it('proposes nothing when no hunk is at a failing line, or the failing line changed since', () => {
    expect(revertFailingHunks({ before, after, current: after, failingLines: [10, 20] })).toEqual({ ok: false, why: 'not-covered' });
    const later = after.replace('line 6\n', 'line 6 later\n');
    expect(revertFailingHunks({ before, after, current: later, failingLines: [5] })).toEqual({ ok: false, why: 'not-clean' });
    expect(revertFailingHunks({ before, after: before, current: before, failingLines: [5] })).toEqual({ ok: false, why: 'no-change' });
  });

  it('still undoes a hunk when only another hunk of the commit was changed since', () => {
    const later = after.replace('line 5 new', 'line 5 newer');
    const out = revertFailingHunks({ before, after, current: later, failingLines: [15] });
    expect(out.ok && out.after.includes('line 5 newer') && out.after.includes('line 16')).toBe(true);
  });
});

describe('isRecentSuspect', () => {
  it('counts a suspect as recent only when it predates the first event by at most the window', () => {
    const suspect = { sha: 'a'.repeat(40), author: 'x', date: '', subject: 's', file: 'f.ts', line: 1 };
    expect(isRecentSuspect({ ...suspect, ageDays: 1.4 }, 14)).toBe(true);
    expect(isRecentSuspect({ ...suspect, ageDays: 14 }, 14)).toBe(true);
    expect(isRecentSuspect({ ...suspect, ageDays: 16.1 }, 14)).toBe(false);
    expect(isRecentSuspect({ ...suspect, ageDays: -0.5 }, 14)).toBe(false);
  });
});
