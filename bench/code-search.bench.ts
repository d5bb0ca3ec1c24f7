/**
 * Code search under a hostile query. `worst_ms_16k_query_30mb`: the slowest of the query shapes
 * below, each 16 KiB, ranked against a 30 MB repository (3,000 files of 10 KB of code), median of
 * BENCH_RUNS, the index built once as Medic keeps it. The shapes: distinct words (every word a
 * term), one long identifier run, a stack trace of many distinct frames, and words that every
 * file holds (every term a hit in every file).
 */
import { loadavg } from 'node:os';
import { createMemoryRepository } from '../src/code-search/memory-repository.js';
import { createCodeSearch } from '../src/code-search/search-code.js';
import { seeded } from '../test/support/storm-events.js';
import { BENCH_RUNS, type BenchReport } from './report.js';

const FILES = 3_000;
const FILE_BYTES = 10_000;
const QUERY = 16 * 1024;

function word(random: () => number, min = 6): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  let out = '';
  for (let i = 0, n = min + Math.floor(random() * 8); i < n; i++) out += letters[Math.floor(random() * 26)];
  return out;
}

function repository(random: () => number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let f = 0; f < FILES; f++) {
    let body = '';
    while (body.length < FILE_BYTES) body += `export function ${word(random)}${word(random)}(input: Order) {\n  return input.total * ${Math.floor(random() * 100)} + commonHelper(input.${word(random)});\n}\n`;
    files[`src/module${f % 60}/${word(random)}-${f}.ts`] = body;
  }
  return files;
}

function fill(random: () => number, next: () => string): string {
  let out = '';
  while (out.length < QUERY) out += next();
  return out.slice(0, QUERY);
}

export default async function codeSearchBench(): Promise<BenchReport> {
  const load = loadavg()[0] ?? 0;
  const random = seeded(2_024);
  const files = repository(random);
  const megabytes = Object.values(files).reduce((sum, text) => sum + text.length, 0) / 1e6;
  // A clone at one revision, as Medic's: the index is built once and kept.
  const search = createCodeSearch({ ...createMemoryRepository(files), revision: async () => 'r1' });
  const queries: Record<string, string> = {
    'distinct words': fill(random, () => `${word(random)} `),
    'one identifier run': fill(random, () => `${word(random)}_`),
    'distinct frames': `TypeError: boom\n${fill(random, () => `    at ${word(random)} (/srv/app/src/${word(random)}.ts:${Math.floor(random() * 900)}:7)\n`)}`,
    'words every file holds': fill(random, () => 'export function return input total commonHelper Order '),
  };
  await search({ text: 'warm up the index', limit: 5 });
  const rows: (string | number)[][] = [];
  for (const [shape, text] of Object.entries(queries)) {
    const runs: number[] = [];
    for (let i = 0; i < BENCH_RUNS; i++) {
      const started = performance.now();
      await search({ text, limit: 5 });
      runs.push(performance.now() - started);
    }
    runs.sort((a, b) => a - b);
    rows.push([shape, Math.round(runs[Math.floor(runs.length / 2)]! * 10) / 10]);
  }
  const worst = Math.max(...rows.map((r) => Number(r[1])));
  return {
    headline: { worst_ms_16k_query_30mb: worst, repository_mb: Math.round(megabytes * 10) / 10, files: FILES, load_average_1m: Math.round(load * 100) / 100 },
    table: { columns: ['query shape (16 KiB)', 'median ms'], rows },
  };
}
