import { describe, expect, it } from 'vitest';
import { revertChange } from '../../src/code-search/revert-change.js';
import { isRecentSuspect } from '../../src/retrieval/find-suspect-commits.js';

const lines = (n: number, edit: (i: number) => string | undefined = () => undefined) => Array.from({ length: n }, (_, i) => edit(i + 1) ?? `line ${i + 1}`).join('\n') + '\n';

describe('revertChange', () => {
  const before = lines(30);
  const after = lines(30, (i) => (i === 10 ? 'line 10 changed' : undefined));

  it('gives back the file before the commit when nothing changed it since', () => {
    expect(revertChange({ before, after, current: after })).toBe(before);
  });

  it('undoes only that change when later commits changed other lines', () => {
    const current = lines(30, (i) => (i === 10 ? 'line 10 changed' : i === 25 ? 'line 25 later' : undefined));
    expect(revertChange({ before, after, current })).toBe(lines(30, (i) => (i === 25 ? 'line 25 later' : undefined)));
  });

  it('refuses when later commits changed the same lines, or the commit created or deleted the file', () => {
    expect(revertChange({ before, after, current: lines(30, (i) => (i === 10 ? 'line 10 changed again' : undefined)) })).toBeUndefined();
    expect(revertChange({ before, after, current: lines(30, (i) => (i === 9 ? 'line 9 moved on' : i === 10 ? 'line 10 changed' : undefined)) })).toBeUndefined();
    expect(revertChange({ before: undefined, after, current: after })).toBeUndefined();
    expect(revertChange({ before, after: undefined, current: before })).toBeUndefined();
    expect(revertChange({ before, after: before, current: before })).toBeUndefined();
  });

  it('counts a suspect as recent only when it predates the first event by at most the window', () => {
    const suspect = { sha: 'a'.repeat(40), author: 'x', date: '', subject: 's', file: 'f.ts', line: 1 };
    expect(isRecentSuspect({ ...suspect, ageDays: 1.4 }, 14)).toBe(true);
    expect(isRecentSuspect({ ...suspect, ageDays: 14 }, 14)).toBe(true);
    expect(isRecentSuspect({ ...suspect, ageDays: 16.1 }, 14)).toBe(false);
    expect(isRecentSuspect({ ...suspect, ageDays: -0.5 }, 14)).toBe(false);
  });
});
