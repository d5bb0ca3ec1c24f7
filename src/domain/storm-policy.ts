import type { Severity } from './event.js';
import type { IncidentState } from './incident.js';

/**
 * How Medic keeps a storm from becoming a flood of incidents: a family opens an incident only
 * after N events in W seconds (globally or per service), new incidents per hour are capped, and
 * families over the cap are counted into one overflow incident per hour. The Redis ingest script
 * applies these rules atomically; this module is their pure statement, tested on its own.
 */

export interface OpenRule {
  minEvents: number;
  windowS: number;
}

export interface StormSettings {
  open: OpenRule;
  /** Per-service overrides of the opening rule, from MEDIC_OPEN_RULES. */
  rules: Record<string, OpenRule>;
  maxNewPerHour: number;
  maxNewPerServiceHour: number;
  cardRefreshS: number;
  quietPeriodS: number;
}

export const HOUR_MS = 3_600_000;

/** The states an incident rests in once analysed and acted upon: a quiet period may close them. */
export const FINISHED_STATES: readonly IncidentState[] = ['reported', 'rejected', 'fixed', 'fix_failed'];

const RULE = /^([A-Za-z0-9_.:-]+)=(\d+)\/(\d+)$/;

/** Parses `checkout=5/120,payments=3/60` (service=events/seconds); every bad entry is a problem. */
export function parseOpenRules(text: string): { rules: Record<string, OpenRule>; problems: string[] } {
  const rules: Record<string, OpenRule> = {};
  const problems: string[] = [];
  for (const entry of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const match = RULE.exec(entry);
    const minEvents = Number(match?.[2]);
    const windowS = Number(match?.[3]);
    if (!match?.[1] || minEvents < 1 || windowS < 1) {
      problems.push(`"${entry}" is not service=events/seconds with both numbers at least 1 (e.g. checkout=5/120)`);
    } else if (rules[match[1]]) {
      problems.push(`service "${match[1]}" has two rules`);
    } else {
      rules[match[1]] = { minEvents, windowS };
    }
  }
  return { rules, problems };
}

export function openRuleFor(service: string, settings: Pick<StormSettings, 'open' | 'rules'>): OpenRule {
  return settings.rules[service] ?? settings.open;
}

export function hourOf(nowMs: number): number {
  return Math.floor(nowMs / HOUR_MS);
}

export function overflowFingerprint(hour: number): string {
  return `overflow:${hour}`;
}

export function isOverflowFingerprint(fingerprint: string): boolean {
  return fingerprint.startsWith('overflow:');
}

export function presentOverflowTitle(families: number): string {
  const what = families === 1 ? '1 event family' : `${families} event families`;
  return `Storm overflow: ${what} suppressed this hour (cap on new incidents reached)`;
}

const SEVERITY_WEIGHT: Record<Severity, number> = { critical: 4, error: 1, warning: 0.5, info: 0.25, debug: 0.25 };

/**
 * How much one event weighs when families compete for the capped incidents: volume first, a
 * critical event counting as four errors.
 */
export function severityWeight(severity: Severity): number {
  return SEVERITY_WEIGHT[severity];
}

/** Whether a suppressed family has earned its own incident: it outweighs the lightest one opened under the cap. */
export function outgrows(suppressedVolume: number, smallestOpenedVolume: number | undefined): boolean {
  return smallestOpenedVolume !== undefined && suppressedVolume > smallestOpenedVolume;
}

export type FamilyDecision = 'hold' | 'open' | 'overflow';

/**
 * What the next event of a family with no open incident does. `pending` counts this event with
 * the family's earlier events inside the window; the counts are the incidents opened this hour.
 */
export function decideFamily(input: {
  pending: number;
  rule: OpenRule;
  openedThisHour: number;
  openedForServiceThisHour: number;
  maxNewPerHour: number;
  maxNewPerServiceHour: number;
}): FamilyDecision {
  if (input.pending < input.rule.minEvents) return 'hold';
  if (input.openedThisHour >= input.maxNewPerHour || input.openedForServiceThisHour >= input.maxNewPerServiceHour) return 'overflow';
  return 'open';
}

/** Whole quiet minutes between the last recorded event and now. */
export function quietMinutes(lastEventMs: number, nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - lastEventMs) / 60_000));
}

export function isQuiet(lastEventMs: number, nowMs: number, quietPeriodS: number): boolean {
  return nowMs - lastEventMs >= quietPeriodS * 1000;
}
