/**
 * The real-trace half of the localization bench: each case's trace ranked by Medic over the
 * project's real layout at the buggy revision (paths only, every file empty), beside the plain
 * trace order. A rank is 1-based; 0 means the faulty file was not ranked at all.
 */
import { createMemoryRepository } from '../src/code-search/memory-repository.js';
import { rankFiles } from '../src/code-search/search-code.js';
import type { RealCase, Split } from './localization-real-cases.js';
import { traceOrder } from './localization-trace-order.js';

export interface RealResult {
  id: string;
  project: string;
  language: string;
  split: Split;
  rank: number;
  baselineRank: number;
  /** Medic printed no ranking at all. */
  noRanking: boolean;
  top: string;
}

export function rankOf(ranked: readonly string[], truth: readonly string[]): number {
  const at = ranked.findIndex((file) => truth.includes(file));
  return at === -1 ? 0 : at + 1;
}

export async function runRealCases(cases: readonly RealCase[]): Promise<RealResult[]> {
  const results: RealResult[] = [];
  for (const c of cases) {
    const repo = createMemoryRepository(Object.fromEntries(c.files.map((f) => [f, ''])));
    const ranked = (await rankFiles(repo, { text: c.trace })).map((r) => r.file);
    const baseline = traceOrder(c.trace, c.files).map((f) => f.file);
    results.push({
      id: c.id, project: c.project, language: c.language, split: c.split,
      rank: rankOf(ranked, c.truth), baselineRank: rankOf(baseline, c.truth), noRanking: ranked.length === 0, top: ranked[0] ?? '-',
    });
  }
  return results;
}

export function shareAtMost(ranks: readonly number[], k: number): number {
  return ranks.length === 0 ? 0 : ranks.filter((r) => r >= 1 && r <= k).length / ranks.length;
}

export function meanReciprocalRank(ranks: readonly number[]): number {
  return ranks.length === 0 ? 0 : ranks.reduce((sum, r) => sum + (r > 0 ? 1 / r : 0), 0) / ranks.length;
}

/** Headline figures of a set of results: Medic's and trace order's top-1/top-5/MRR and the no-ranking count. */
export function summarize(results: readonly RealResult[]) {
  const ranks = results.map((r) => r.rank);
  const base = results.map((r) => r.baselineRank);
  return {
    cases: results.length,
    top1: shareAtMost(ranks, 1),
    top5: shareAtMost(ranks, 5),
    mrr: meanReciprocalRank(ranks),
    baselineTop1: shareAtMost(base, 1),
    baselineTop5: shareAtMost(base, 5),
    noRanking: results.filter((r) => r.noRanking).length,
  };
}
