/**
 * Redaction speed. `worst_ms_64k`: the slowest adversarial shape (test/support/hostile-inputs.ts),
 * each 64 KiB, median of RUNS. `mb_per_s`: ordinary log text — the Loghub-2k messages of ten real
 * systems (public data Medic's rules were not written from), redacted line by line as Medic does,
 * median of RUNS. `changed_line_pct`: the share of those lines redaction changed at all, with the
 * lines holding a session id (redacted by design) counted apart.
 */
import { loadavg } from 'node:os';
import { redactSecrets } from '../src/domain/untrusted/redact.js';
import { hostileInputs } from '../test/support/hostile-inputs.js';
import { loadLoghub } from './loghub.js';
import type { BenchReport } from './report.js';

const RUNS = 7;
const round = (n: number, digits = 2) => Number(n.toFixed(digits));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function time(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

export default async function redactionBench(): Promise<BenchReport> {
  const loadBefore = loadavg()[0] ?? 0;
  const shapes = Object.entries(hostileInputs());
  for (const [, input] of shapes) redactSecrets(input); // warm up the regex and JIT caches
  const perShape = shapes.map(([shape, input]) => ({ shape, ms: round(median(Array.from({ length: RUNS }, () => time(() => redactSecrets(input))))) }));
  perShape.sort((a, b) => b.ms - a.ms);

  const systems = await loadLoghub();
  const lines = systems.flatMap((s) => s.rows.map((r) => r.content));
  const bytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line, 'utf8') + 1, 0);
  for (const line of lines) redactSecrets(line);
  const ms = median(Array.from({ length: RUNS }, () => time(() => { for (const line of lines) redactSecrets(line); })));
  const bySystem = systems.map((s) => {
    const changed = s.rows.filter((r) => redactSecrets(r.content) !== r.content);
    const session = changed.filter((r) => /session|sid/i.test(r.content)).length;
    return { system: s.system, lines: s.rows.length, changed: changed.length, session, example: changed.find((r) => !/session|sid/i.test(r.content))?.content.slice(0, 160) };
  });
  const changed = bySystem.reduce((sum, s) => sum + s.changed, 0);
  const session = bySystem.reduce((sum, s) => sum + s.session, 0);
  const worst = perShape[0];
  const loadAfter = loadavg()[0] ?? 0;
  return {
    headline: {
      worst_ms_64k: worst?.ms ?? 0,
      mb_per_s: round(bytes / 1e6 / (ms / 1_000)),
      changed_line_pct: round((100 * changed) / lines.length),
      changed_line_pct_without_session_ids: round((100 * (changed - session)) / lines.length),
    },
    table: {
      columns: ['input', 'ms (median)'],
      rows: [...perShape.slice(0, 8).map((s) => [`64 KiB: ${s.shape}`, s.ms]), [`Loghub-2k, ${lines.length} lines, ${round(bytes / 1e6)} MB`, round(ms)]],
    },
    detail: { runs: RUNS, load_average: [round(loadBefore), round(loadAfter)], shapes: perShape, loghub: bySystem },
  };
}
