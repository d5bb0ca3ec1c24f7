/** What every benchmark returns: flat numeric headline figures, a readable table, any detail. */
export interface BenchReport {
  headline: Record<string, number>;
  table: { columns: string[]; rows: (string | number)[][] };
  detail?: unknown;
}

export type Bench = () => Promise<BenchReport>;

export function formatTable(table: BenchReport['table']): string {
  const cells = [table.columns, ...table.rows.map((row) => row.map((cell) => (typeof cell === 'number' ? formatNumber(cell) : cell)))];
  const widths = table.columns.map((_, i) => Math.max(...cells.map((row) => String(row[i] ?? '').length)));
  return cells.map((row) => row.map((cell, i) => String(cell).padEnd(widths[i] ?? 0)).join('  ')).join('\n');
}

function formatNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(3);
}
