/**
 * The real-trace half of the localization bench: crash traces from public bug reports
 * (bench/fixtures/localization/real/cases.json, each with its source and the file the fix changed),
 * each searched in the real project's layout rebuilt from paths. Measured twice: Medic's ranker
 * and the plain baseline of taking the trace's in-project frames in order.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { indexFilesByStem, mapFramePath } from '../src/code-search/map-frames.js';
import { createMemoryRepository } from '../src/code-search/memory-repository.js';
import { rankFiles } from '../src/code-search/search-code.js';
import { parseStackTrace } from '../src/domain/stack-trace.js';

export interface RealCase {
  id: string;
  project: string;
  language: string;
  source: string;
  /** Every file the fixing commit changed; finding any of them counts. */
  truth: string[];
  files: string[];
  /** A layout of bench/fixtures/localization/real/layouts.json whose files join the case's own. */
  layout?: string;
  trace: string;
}

export interface RealResult {
  id: string;
  language: string;
  rank: number;
  baselineRank: number;
  top: string;
}

export async function loadRealCases(fixtures: string): Promise<RealCase[]> {
  const cases = (JSON.parse(await readFile(join(fixtures, 'real', 'cases.json'), 'utf8')) as { cases: RealCase[] }).cases;
  const { layouts } = JSON.parse(await readFile(join(fixtures, 'real', 'layouts.json'), 'utf8')) as { layouts: Record<string, { files: string[] }> };
  return cases.map((c) => ({ ...c, files: [...new Set([...c.files, ...c.truth, ...(c.layout ? (layouts[c.layout]?.files ?? []) : [])])] }));
}

/**
 * In-project frames in trace order (a frame is in the project when it maps onto a repository
 * file), innermost first; each file counts once.
 */
export function frameOrder(trace: string, files: readonly string[]): string[] {
  const index = indexFilesByStem(files);
  const out: string[] = [];
  for (const frame of parseStackTrace(trace).frames) {
    for (const { file } of mapFramePath(frame.file, index, { loose: frame.language === 'java' })) if (!out.includes(file)) out.push(file);
  }
  return out;
}

function rankOf(ranked: readonly string[], truth: readonly string[]): number {
  const at = ranked.findIndex((file) => truth.includes(file));
  return at === -1 ? 0 : at + 1;
}

export async function runRealCases(cases: readonly RealCase[]): Promise<RealResult[]> {
  const results: RealResult[] = [];
  for (const c of cases) {
    const repo = createMemoryRepository(Object.fromEntries(c.files.map((f) => [f, ''])));
    const ranked = (await rankFiles(repo, { text: c.trace })).map((r) => r.file);
    results.push({ id: c.id, language: c.language, rank: rankOf(ranked, c.truth), baselineRank: rankOf(frameOrder(c.trace, c.files), c.truth), top: ranked[0] ?? '-' });
  }
  return results;
}

export function shareAtMost(ranks: readonly number[], k: number): number {
  return ranks.length === 0 ? 0 : ranks.filter((r) => r >= 1 && r <= k).length / ranks.length;
}

export function meanReciprocalRank(ranks: readonly number[]): number {
  return ranks.length === 0 ? 0 : ranks.reduce((sum, r) => sum + (r > 0 ? 1 / r : 0), 0) / ranks.length;
}
