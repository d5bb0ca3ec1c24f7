/**
 * The analyst that needs no model: names the nearest documented error family and cites the log
 * lines that look like the failure. It stays under fix eligibility by construction (confidence
 * ≤ 0.4) and never writes code. The one fix that needs no model — reverting a recent suspect
 * commit — is proposed by the fix-proposal step from blame's evidence, not by this analyst, and
 * still waits for a human's approval.
 */
import type { AnalysisProvenance, RcaResult, Recommendation, SimilarDoc } from '../domain/analysis.js';
import type { ErrorEvent, LogEntry } from '../domain/event.js';
import { sanitizeUntrusted } from '../domain/untrusted/prepare.js';
import type { Analyst, RcaInput } from '../ports/analyst.js';
import { isUndetermined } from './fix-eligibility.js';
import { contributingFactors, incidentEvidence, offlineRootCause } from './offline-rca-text.js';

export const OFFLINE_MAX_CONFIDENCE = 0.4;
/** Below this similarity the nearest doc is a guess, not a family. */
const FAMILY_SIMILARITY = 0.35;
const PROVENANCE: AnalysisProvenance = { analyst: 'offline', tokens: 0 };

function clip(text: string, max: number): string {
  const flat = sanitizeUntrusted(text).replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** The evidence an offline analysis cites: only this incident's lines (see offline-rca-text.ts). */
export function pickEvidence(event: ErrorEvent, entries: LogEntry[]): LogEntry[] {
  return incidentEvidence(event, entries);
}

export function offlineRca(input: RcaInput, reason?: string): RcaResult {
  const { event, logs, similarDocs, recentChanges } = input;
  const top: SimilarDoc | undefined = [...similarDocs].sort((a, b) => b.similarity - a.similarity)[0];
  const evidence = pickEvidence(event, logs.entries);
  const family = top && top.similarity >= FAMILY_SIMILARITY ? top : undefined;
  // Thin evidence halves what the family match alone would justify.
  const base = family ? Math.min(OFFLINE_MAX_CONFIDENCE, family.similarity * OFFLINE_MAX_CONFIDENCE) : 0.1;
  const confidence = Math.round((evidence.length > 0 ? base : base / 2) * 100) / 100;
  const rootCause = offlineRootCause({ event, family, docs: similarDocs, changes: recentChanges, suspects: input.suspectCommits ?? [] });
  const degraded = reason ? `Degraded analysis (${clip(reason, 200)}). ` : 'Offline analysis without a model. ';
  return {
    rootCause,
    contributingFactors: contributingFactors(event, recentChanges, input.suspectCommits ?? []),
    evidenceIds: [...(family ? [family.id] : []), ...evidence.map((e) => e.id)],
    impactedComponent: clip(event.service, 200),
    severity: event.severity,
    confidence,
    summary: clip(`${degraded}${evidence.length} matching log line(s) in the window${logs.note ? `; ${logs.note}` : ''}.`, 1_000),
    sequenceOfEvents: evidence
      .slice()
      .sort((a, b) => a.time.localeCompare(b.time))
      .slice(0, 5)
      .map((e) => clip(`${e.time} ${e.level} ${e.service}: ${e.message}`, 300)),
  };
}

export function offlineRecommendation(rca: RcaResult, reason?: string): Recommendation {
  const prefix = reason ? `Degraded (${clip(reason, 200)}): ` : '';
  if (isUndetermined(rca)) {
    return {
      kind: 'investigate',
      summary: `${prefix}Investigate: the cause is undetermined. Start from the cited log lines and the recent changes.`,
      steps: ['Read the cited log lines around the first error', 'Check the recent changes to the impacted component', 'Document the family once found so the next one is recognized'],
      risk: 'low',
    };
  }
  return {
    kind: 'mitigate',
    summary: `${prefix}Follow the runbook of the matching family and confirm the cause against the evidence before changing code.`,
    steps: ['Open the matching documented family and apply its mitigation', 'Confirm the cited log lines show the same failure', 'Escalate to the owning team if the runbook does not apply'],
    risk: 'medium',
  };
}

export function createOfflineAnalyst(): Analyst {
  return {
    name: 'offline',
    async rca(input) {
      const rca = offlineRca(input);
      return { rca, provenance: PROVENANCE, context: `offline: docs=${input.similarDocs.map((d) => d.id).join(',')} logs=${rca.evidenceIds.join(',')}` };
    },
    async recommend(rca) {
      return { recommendation: offlineRecommendation(rca), provenance: PROVENANCE };
    },
    async proposeFix() {
      return { note: 'No fix proposed: the offline analyzer never writes code changes (it can only offer the revert of a recent suspect commit); configure an LLM (MEDIC_LLM, OPENAI_API_KEY) for fix proposals.', provenance: PROVENANCE };
    },
  };
}
