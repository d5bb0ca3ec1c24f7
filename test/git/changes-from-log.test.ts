import { describe, expect, it } from 'vitest';
import { changesFromLog } from '../../src/adapters/git/changes-from-log.js';
import type { LoggedCommit } from '../../src/ports/code.js';

const commit = (sha: string, committedAt: string, files: string[]): LoggedCommit => ({ sha, author: 'Ann', date: committedAt, committedAt, subject: `change ${sha}`, files });
const LOG = [
  commit('c4', '2026-11-30T10:00:00Z', ['src/a.ts', 'src/b.ts']),
  commit('m3', '2026-11-29T10:00:00Z', []),
  commit('c2', '2026-11-28T10:00:00Z', ['src/lib/c.ts']),
  commit('c1', '2026-11-20T10:00:00Z', ['src/a.ts']),
];
const at = (iso: string) => Date.parse(iso);

describe('recent changes read from the branch log, as git log -- <paths> answers them', () => {
  it('keeps the commits in the window that changed one of the files, with only those files', () => {
    const changes = changesFromLog(LOG, ['src/a.ts'], at('2026-11-25T00:00:00Z'), at('2026-12-01T00:00:00Z'), 10);
    expect(changes).toEqual([{ sha: 'c4', author: 'Ann', date: '2026-11-30T10:00:00Z', subject: 'change c4', files: ['src/a.ts'] }]);
  });

  it('includes both ends of the window at whole seconds, as git reads --since and --until', () => {
    expect(changesFromLog(LOG, ['src/a.ts'], at('2026-11-20T10:00:00.900Z'), at('2026-11-30T10:00:00.100Z'), 10).map((c) => c.sha)).toEqual(['c4', 'c1']);
    expect(changesFromLog(LOG, ['src/a.ts'], at('2026-11-20T10:00:01Z'), at('2026-11-30T09:59:59Z'), 10)).toEqual([]);
  });

  it('reads a directory as everything under it, and stops at the limit, newest first', () => {
    expect(changesFromLog(LOG, ['src/lib'], 0, at('2026-12-01T00:00:00Z'), 10).map((c) => c.sha)).toEqual(['c2']);
    expect(changesFromLog(LOG, ['src/lib/'], 0, at('2026-12-01T00:00:00Z'), 10).map((c) => c.sha)).toEqual(['c2']);
    expect(changesFromLog(LOG, ['src/a'], 0, at('2026-12-01T00:00:00Z'), 10)).toEqual([]);
    expect(changesFromLog(LOG, ['src/a.ts', 'src/lib/c.ts'], 0, at('2026-12-01T00:00:00Z'), 2).map((c) => c.sha)).toEqual(['c4', 'c2']);
  });

  it('lists every commit without paths, a merge that changed no file of its own too', () => {
    expect(changesFromLog(LOG, [], at('2026-11-28T00:00:00Z'), at('2026-12-01T00:00:00Z'), 10).map((c) => [c.sha, c.files.length])).toEqual([['c4', 2], ['m3', 0], ['c2', 1]]);
  });
});
