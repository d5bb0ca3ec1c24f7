/** What every benchmark returns: flat numeric headline figures, a readable table, any detail. */
export interface BenchReport {
  headline: Record<string, number>;
  table: { columns: string[]; rows: (string | number)[][] };
  detail?: unknown;
}

export type Bench = () => Promise<BenchReport>;

/** Runs a timing bench repeats; MEDIC_BENCH_RUNS shortens a look on a busy machine, the figures to quote are the default 5. */
export const BENCH_RUNS = Number(process.env.MEDIC_BENCH_RUNS ?? 5);

/** The middle value (the upper middle of an even count); 0 for none. */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export function formatTable(table: BenchReport['table']): string {
  const cells = [table.columns, ...table.rows.map((row) => row.map((cell) => (typeof cell === 'number' ? formatNumber(cell) : cell)))];
  const widths = table.columns.map((_, i) => Math.max(...cells.map((row) => String(row[i] ?? '').length)));
  return cells.map((row) => row.map((cell, i) => String(cell).padEnd(widths[i] ?? 0)).join('  ')).join('\n');
}

function formatNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(3);
}
