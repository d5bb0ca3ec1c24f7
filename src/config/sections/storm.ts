/**
 * Storm control: when a family opens an incident, how many incidents may open per hour,
 * how often a card's count is refreshed, and how long a quiet family stays open. Merged into
 * EnvSchema; nothing here reads process.env.
 */
import { z } from 'zod';
import { parseOpenRules, type OpenRule, type StormSettings } from '../../domain/storm-policy.js';
import { intFrom } from '../env-helpers.js';

const openRules = z.preprocess(
  (v) => (v === undefined ? '' : v),
  z.string().transform((text, ctx): Record<string, OpenRule> => {
    const { rules, problems } = parseOpenRules(text);
    for (const problem of problems) ctx.addIssue({ code: 'custom', message: problem });
    return rules;
  }),
);

export const stormEnv = {
  /** Seconds between two updates of one card's event count (throttled refresh). */
  MEDIC_CARD_REFRESH_S: intFrom(30, 1, 86_400),
  /** Seconds without a new event after which a finished incident is closed as resolved. */
  MEDIC_QUIET_PERIOD_S: intFrom(3_600, 1),
  /** Seconds between two sweeps for quiet incidents. */
  MEDIC_SWEEP_INTERVAL_S: intFrom(60, 1, 86_400),
  /** A family opens an incident at its Nth event within MEDIC_OPEN_WINDOW_S. */
  MEDIC_OPEN_MIN_EVENTS: intFrom(1, 1, 1_000_000),
  MEDIC_OPEN_WINDOW_S: intFrom(300, 1, 86_400),
  /** Per-service opening rules, service=events/seconds: `checkout=5/120,payments=3/60`. */
  MEDIC_OPEN_RULES: openRules,
  MEDIC_MAX_NEW_INCIDENTS_PER_HOUR: intFrom(50, 1),
  MEDIC_MAX_NEW_INCIDENTS_PER_SERVICE_HOUR: intFrom(20, 1),
  /** The operator's grouping rules (match → fixed family, or split by a field); validated at start. */
  MEDIC_GROUPING_FILE: z.string().default('data/policy/grouping.yaml'),
};

type StormEnv = { [K in keyof typeof stormEnv]: z.output<(typeof stormEnv)[K]> };

/** The storm settings the ingest path and the sweep take, from the validated config. */
export function stormSettingsFrom(env: StormEnv): StormSettings {
  return {
    open: { minEvents: env.MEDIC_OPEN_MIN_EVENTS, windowS: env.MEDIC_OPEN_WINDOW_S },
    rules: env.MEDIC_OPEN_RULES,
    maxNewPerHour: env.MEDIC_MAX_NEW_INCIDENTS_PER_HOUR,
    maxNewPerServiceHour: env.MEDIC_MAX_NEW_INCIDENTS_PER_SERVICE_HOUR,
    cardRefreshS: env.MEDIC_CARD_REFRESH_S,
    quietPeriodS: env.MEDIC_QUIET_PERIOD_S,
  };
}
