/**
 * The real localization set keeps the promises the bench's figures rest on: enough real cases in
 * enough languages, each traceable to its public source and fixing commit, its truth inside the
 * repository's layout at the buggy revision, the split made by project with the recorded rule, and
 * enough cases where the faulty file is not the trace's top frame. Reads only the fixture.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRealSet, revisionFiles, type RealSet } from '../../bench/localization-real-cases.js';
import { traceOrder } from '../../bench/localization-trace-order.js';

const SHA = /^[0-9a-f]{40}$/;
const splitOf = (project: string) => (Number.parseInt(createHash('sha256').update(project).digest('hex').slice(0, 8), 16) % 2 === 0 ? 'tuning' : 'frozen');

let set: RealSet;
beforeAll(async () => {
  set = await loadRealSet('bench/fixtures/localization');
});

describe('the real localization set', () => {
  it('holds at least 150 cases in at least 7 languages, in both halves', () => {
    expect(set.cases.length).toBeGreaterThanOrEqual(150);
    expect(new Set(set.cases.map((c) => c.language)).size).toBeGreaterThanOrEqual(7);
    expect(set.cases.filter((c) => c.split === 'frozen').length).toBeGreaterThanOrEqual(50);
    expect(set.cases.filter((c) => c.split === 'tuning').length).toBeGreaterThanOrEqual(50);
    expect(new Set(set.cases.map((c) => c.id)).size).toBe(set.cases.length);
  });

  it('names each case’s public source, its fixing commit and the buggy revision', () => {
    for (const c of set.cases) {
      expect(c.source, c.id).toMatch(/^https:\/\/(github\.com\/[^/]+\/[^/]+\/(issues|pull|commit)\/\w+|issues\.jenkins\.io\/browse\/JENKINS-\d+|tickets\.metabrainz\.org\/browse\/PICARD-\d+)$/);
      expect(c.fix, c.id).toMatch(SHA);
      expect(c.buggy, c.id).toMatch(SHA);
      expect(c.trace.trim().length, c.id).toBeGreaterThan(0);
      for (const sha of c.szz.commits) expect(sha, c.id).toMatch(SHA);
    }
  });

  it('keeps each truth inside the layout of the buggy revision, and no test file in it', () => {
    for (const c of set.cases) {
      expect(c.truth.length, c.id).toBeGreaterThan(0);
      const files = new Set(c.files);
      for (const file of c.truth) expect(files.has(file), `${c.id}: ${file}`).toBe(true);
      expect(c.truth.filter((f) => /(^|\/)(tests?|spec)\//.test(f)), c.id).toEqual([]);
    }
  });

  it('splits by project with the recorded rule, never one project in both halves', () => {
    expect(set.split.rule).toMatch(/sha256/);
    for (const c of set.cases) expect(c.split, c.project).toBe(splitOf(c.project));
    const tuning = new Set(set.split.tuning);
    const frozen = new Set(set.split.frozen);
    expect([...tuning].filter((p) => frozen.has(p))).toEqual([]);
    expect(new Set(set.cases.filter((c) => c.split === 'tuning').map((c) => c.project))).toEqual(tuning);
    expect(new Set(set.cases.filter((c) => c.split === 'frozen').map((c) => c.project))).toEqual(frozen);
  });

  it('leaves out the Defects4J projects kept for the independent check', () => {
    const heldOut = /commons-lang|commons-math|joda-time|jfreechart|closure-compiler/i;
    expect(set.cases.filter((c) => heldOut.test(c.project)).map((c) => c.id)).toEqual([]);
  });

  it('has at least 40 % of cases whose faulty file is not the top in-project frame', () => {
    const notTop = set.cases.filter((c) => !c.truth.includes(traceOrder(c.trace, c.files)[0]?.file ?? ''));
    expect(notTop.length / set.cases.length).toBeGreaterThanOrEqual(0.4);
  });
});

describe('revisionFiles', () => {
  it('rebuilds a later revision from the first one and its added and removed paths', () => {
    const revisions = { a: { files: ['x.py', 'y.py'] }, b: { base: 'a', add: ['z.py'], remove: ['x.py'] } };
    expect(revisionFiles(revisions, 'b')).toEqual(['y.py', 'z.py']);
    expect(() => revisionFiles(revisions, 'c')).toThrow(/no revision c/);
  });
});
