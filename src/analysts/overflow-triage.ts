/**
 * The offline triage of a storm's overflow incident: no model and no log window, only what the
 * ingest counted — which services, which families with how many events, and the family most
 * likely to be the root cause by weighted volume (events × severity weight, the measure families
 * compete for the capped incidents on). Pure; the refresh job writes it on the overflow record.
 */
import type { RcaResult, Recommendation } from '../domain/analysis.js';
import type { Severity } from '../domain/event.js';
import { sanitizeUntrusted } from '../domain/untrusted/prepare.js';
import type { OverflowFamily } from '../ports/incident-store.js';
import { OFFLINE_MAX_CONFIDENCE } from './offline-analyst.js';

const LISTED = 5;

export interface OverflowTriage {
  rca: RcaResult;
  recommendation: Recommendation;
  /** The family named as the most likely root cause. */
  top: OverflowFamily;
}

function clip(text: string, max: number): string {
  const flat = sanitizeUntrusted(text).replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** The severity a family's average event weight stands for (see storm-policy's weights). */
function severityOf(family: OverflowFamily): Severity {
  const weight = family.count > 0 ? family.volume / family.count : 1;
  return weight >= 4 ? 'critical' : weight >= 1 ? 'error' : weight >= 0.5 ? 'warning' : 'info';
}

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);
const plural = (n: number, word: string) => `${n} ${n === 1 ? word : word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`}`;

/** The message with the most weighted volume, summed over the services that report it. */
function heaviestTitle(ranked: readonly OverflowFamily[]): string | undefined {
  const byTitle = new Map<string, number>();
  for (const f of ranked) byTitle.set(f.title, (byTitle.get(f.title) ?? 0) + f.volume);
  let best: string | undefined;
  for (const [title, volume] of byTitle) if (best === undefined || volume > (byTitle.get(best) ?? 0)) best = title;
  return best;
}

/** Undefined when the overflow holds no family yet. `families` come heaviest first. */
export function triageOverflow(families: readonly OverflowFamily[]): OverflowTriage | undefined {
  const ranked = [...families].sort((a, b) => b.volume - a.volume || b.count - a.count);
  // The same message in several services is one failure seen from several places: its volume adds up.
  const heaviest = heaviestTitle(ranked);
  const sameTitle = ranked.filter((f) => f.title === heaviest);
  const top = sameTitle[0];
  if (!top) return undefined;
  const events = ranked.reduce((n, f) => n + f.count, 0);
  const volume = ranked.reduce((n, f) => n + f.volume, 0);
  const services = [...new Set(ranked.map((f) => f.service))].sort();
  const topVolume = sameTitle.reduce((n, f) => n + f.volume, 0);
  const share = volume > 0 ? topVolume / volume : 0;
  const where = sameTitle.length > 1 ? `${plural(sameTitle.length, 'service')} (${sameTitle.map((f) => f.service).slice(0, 5).join(', ')})` : top.service;
  const rootCause = clip(
    `Most likely the "${top.title}" failure in ${where}: ${sameTitle.reduce((n, f) => n + f.count, 0)} of the overflow's ${events} events, ${percent(topVolume, volume)}% of its severity-weighted volume. Offline triage by volume and severity, without a model or a log window: confirm by opening its incident.`,
    2_000,
  );
  return {
    top,
    rca: {
      rootCause,
      contributingFactors: ranked.filter((f) => f.title !== top.title).slice(0, LISTED).map((f) => clip(`${f.title} — ${plural(f.count, 'event')} in ${f.service}`, 500)),
      evidenceIds: [],
      impactedComponent: clip(top.service, 200),
      severity: severityOf(top),
      // A dominant family is a better guess than one of many; never above the offline cap.
      confidence: Math.round(Math.min(OFFLINE_MAX_CONFIDENCE, share * OFFLINE_MAX_CONFIDENCE) * 100) / 100,
      summary: clip(`Storm overflow: ${plural(ranked.length, 'family')} from ${plural(services.length, 'service')} (${services.slice(0, 10).join(', ')}${services.length > 10 ? ', …' : ''}), ${plural(events, 'event')}.`, 1_000),
      sequenceOfEvents: ranked.slice(0, LISTED).map((f, i) => clip(`${i + 1}. ${f.title} — ${plural(f.count, 'event')} in ${f.service}`, 500)),
    },
    recommendation: {
      kind: 'investigate',
      summary: clip(`Open incident for "${top.title}" (${top.service}) first: it carries the most severity-weighted volume, and its own analysis looks at its logs and code.`, 1_000),
      steps: [
        'Press Open incident on the top family for its own analysis and fix proposal',
        'Check whether the listed services share a dependency that failed at the same time',
        'If storms this size are expected, raise MEDIC_MAX_NEW_INCIDENTS_PER_HOUR / MEDIC_MAX_NEW_INCIDENTS_PER_SERVICE_HOUR',
      ],
      risk: 'low',
    },
  };
}
