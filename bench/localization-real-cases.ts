/**
 * The real localization set (bench/fixtures/localization/real): crash traces from public bug
 * reports, each with its fixing commit, the buggy revision (the fix's parent), the non-test source
 * files the fix changed, the repository's paths at that revision and the SZZ truth for the commit
 * that introduced the bug. See the fixture's `about` for how it was built and split.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export type Split = 'tuning' | 'frozen';

export interface RealCase {
  id: string;
  project: string;
  language: string;
  split: Split;
  source: string;
  sourceKind: 'issue' | 'pull' | 'commit';
  /** The fixing commit; `buggy` is its first parent. */
  fix: string;
  buggy: string;
  /** The non-test source files the fix modified or deleted; finding any of them counts. */
  truth: string[];
  /** Commits that introduced the lines the fix deleted or modified (SZZ), most lines first. */
  szz: { commits: string[]; lines: number };
  trace: string;
  /** Every path of the repository at the buggy revision. */
  files: string[];
}

export interface RealSet {
  about: string;
  split: { rule: string; tuning: string[]; frozen: string[] };
  cases: RealCase[];
}

type Revision = { files: string[] } | { base: string; add: string[]; remove: string[] };

interface StoredCase extends Omit<RealCase, 'files'> {
  layout: string;
}

/** A project's layouts: the first revision in full, later ones as paths added and removed. */
export function revisionFiles(revisions: Readonly<Record<string, Revision>>, sha: string): string[] {
  const revision = revisions[sha];
  if (!revision) throw new Error(`layout has no revision ${sha}`);
  if ('files' in revision) return revision.files;
  const removed = new Set(revision.remove);
  return [...revisionFiles(revisions, revision.base).filter((f) => !removed.has(f)), ...revision.add];
}

export async function loadRealSet(fixtures: string): Promise<RealSet> {
  const dir = join(fixtures, 'real');
  const doc = JSON.parse(await readFile(join(dir, 'cases.json'), 'utf8')) as Omit<RealSet, 'cases'> & { cases: StoredCase[] };
  const layouts = new Map<string, Record<string, Revision>>();
  const cases: RealCase[] = [];
  for (const { layout, ...c } of doc.cases) {
    let revisions = layouts.get(layout);
    if (!revisions) {
      revisions = (JSON.parse(gunzipSync(await readFile(join(dir, layout))).toString('utf8')) as { revisions: Record<string, Revision> }).revisions;
      layouts.set(layout, revisions);
    }
    cases.push({ ...c, files: revisionFiles(revisions, c.buggy) });
  }
  return { about: doc.about, split: doc.split, cases };
}
