/**
 * `npm run bench` runs every benchmark; `npm run bench -- NAME` runs one. Each writes
 * bench/results/NAME.json (flat headline keys plus detail) and prints a table.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatTable, type Bench } from './report.js';

const here = dirname(fileURLToPath(import.meta.url));

async function listBenches(): Promise<string[]> {
  const files = await readdir(here);
  return files.filter((f) => f.endsWith('.bench.ts')).map((f) => f.replace(/\.bench\.ts$/, '')).sort();
}

async function runOne(name: string): Promise<void> {
  const module = (await import(pathToFileURL(join(here, `${name}.bench.ts`)).href)) as { default: Bench };
  process.stdout.write(`\n== bench ${name} ==\n`);
  const report = await module.default();
  await mkdir(join(here, 'results'), { recursive: true });
  await writeFile(join(here, 'results', `${name}.json`), JSON.stringify({ ...report.headline, detail: report.detail ?? null }, null, 2) + '\n');
  process.stdout.write(formatTable(report.table) + '\n');
  process.stdout.write(Object.entries(report.headline).map(([k, v]) => `${k}=${v}`).join('  ') + '\n');
}

async function main(): Promise<void> {
  const all = await listBenches();
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !all.includes(name));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${all.join(', ')}\n`);
    process.exit(2);
  }
  for (const name of wanted.length > 0 ? wanted : all) await runOne(name);
  // Benchmarks may leave Redis connections or servers behind; the results are written.
  process.exit(0);
}

await main();
