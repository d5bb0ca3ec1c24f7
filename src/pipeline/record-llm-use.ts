import type { AnalysisProvenance } from '../domain/analysis.js';
import type { Metrics } from '../observability/metrics.js';

/** Counts one analyst call and its tokens by step; the outcome label names the analyst that answered. */
export function recordLlmUse(metrics: Metrics, step: 'rca' | 'recommend' | 'fix', provenance: AnalysisProvenance): void {
  metrics.llmCalls.inc({ step, outcome: provenance.analyst });
  if (provenance.tokens > 0) metrics.llmTokens.inc({ step, kind: 'total' }, provenance.tokens);
}
