/**
 * Incident grouping on Loghub-2k: each system replayed as ERROR events of one service through the
 * real ingest path (Redis, Lua, miner), scored on the event → incident assignment against the
 * true EventId. Leave-one-system-out: whatever the grid of miner settings holds, the setting for a
 * system is chosen on the other nine before that system is scored. With the default caps, how many
 * of each system's five biggest templates got an incident of their own.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { Redis } from 'ioredis';
import { defaultMinerOptions, type MinerOptions } from '../src/domain/templates/miner-options.js';
import { replaySystem, type StormCaps } from './grouping-replay.js';
import { loadLoghub, type LoghubSystem } from './loghub.js';
import type { BenchReport } from './report.js';
import { groupingAccuracy } from './templates.bench.js';

const REDIS_URL = process.env.MEDIC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const DEFAULT_CAPS: StormCaps = { open: { minEvents: 1, windowS: 300 }, rules: {}, maxNewPerHour: 50, maxNewPerServiceHour: 20 };

/**
 * The settings leave-one-system-out may choose among (ties go to the earlier one); the first is
 * the shipped default, scored as such in incident_ga_*.
 */
export const GRID: Partial<MinerOptions>[] = [{}];
for (const siblingsToGeneralize of [3, 4]) {
  for (const maxWordDiffs of [1, 2]) {
    for (const maxMedianCount of [4, Number.POSITIVE_INFINITY]) {
      const setting = { siblingsToGeneralize, maxWordDiffs, maxMedianCount };
      const isDefault = (Object.keys(setting) as (keyof typeof setting)[]).every((k) => setting[k] === defaultMinerOptions[k]);
      if (!isDefault) GRID.push(setting);
    }
  }
}

function describe(setting: Partial<MinerOptions>): string {
  const keys = Object.keys(setting) as (keyof MinerOptions)[];
  return keys.length === 0 ? 'default' : keys.map((k) => `${k}=${setting[k] ?? defaultMinerOptions[k]}`).join(',');
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** How many of the system's five biggest true templates got their own (non-overflow) incident. */
function topCarded(system: LoghubSystem, incidents: string[], overflow: Set<string>): number {
  const sizes = new Map<string, number[]>();
  system.rows.forEach((row, i) => (sizes.get(row.eventId) ?? sizes.set(row.eventId, []).get(row.eventId)!).push(i));
  const top = [...sizes.values()].sort((a, b) => b.length - a.length).slice(0, 5);
  // A template has its own card when most of its events sit in a family incident, not the overflow.
  return top.filter((lines) => lines.filter((i) => incidents[i] !== '' && !overflow.has(incidents[i]!)).length * 2 > lines.length).length;
}

export default async function bench(): Promise<BenchReport> {
  const systems = await loadLoghub();
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const run = `medic-bench-grouping-${randomUUID().slice(0, 8)}:`;
  try {
    const started = performance.now();
    // ga[setting][system], uncapped: the grouping itself, not the storm caps.
    const ga: number[][] = [];
    const incidentCounts: number[][] = [];
    for (const [s, setting] of GRID.entries()) {
      ga.push([]);
      incidentCounts.push([]);
      for (const [k, system] of systems.entries()) {
        const out = await replaySystem(redis, `${run}${s}:${k}:`, system.system, system.rows, { miner: setting });
        ga[s]!.push(groupingAccuracy(system.rows.map((r) => r.eventId), out.incidents));
        incidentCounts[s]!.push(new Set(out.incidents).size);
      }
    }
    const loso = systems.map((_, held) => {
      let best = 0;
      GRID.forEach((_, s) => {
        const others = (t: number) => mean(ga[t]!.filter((_, k) => k !== held));
        if (others(s) > others(best)) best = s;
      });
      return { setting: best, ga: ga[best]![held]! };
    });
    const rows: (string | number)[][] = [];
    const carded: number[] = [];
    for (const [k, system] of systems.entries()) {
      const out = await replaySystem(redis, `${run}caps:${k}:`, system.system, system.rows, { storm: DEFAULT_CAPS });
      carded.push(topCarded(system, out.incidents, out.overflow));
      const templates = new Set(system.rows.map((r) => r.eventId)).size;
      rows.push([system.system, round(ga[0]![k]!), round(loso[k]!.ga), incidentCounts[0]![k]!, templates, carded[k]!, describe(GRID[loso[k]!.setting]!)]);
    }
    const perTemplate = systems.map((system, k) => incidentCounts[0]![k]! / new Set(system.rows.map((r) => r.eventId)).size);
    return {
      headline: {
        incident_ga_mean: round(mean(ga[0]!)),
        incident_ga_min: round(Math.min(...ga[0]!)),
        incidents_per_template: round(mean(perTemplate)),
        loso_ga_mean: round(mean(loso.map((l) => l.ga))),
        top5_carded_mean: round(mean(carded)),
      },
      table: { columns: ['system', 'incident_ga', 'loso_ga', 'incidents', 'templates', 'top5_carded', 'loso_setting'], rows },
      detail: {
        grid: GRID.map(describe),
        caps: { perHour: DEFAULT_CAPS.maxNewPerHour, perServiceHour: DEFAULT_CAPS.maxNewPerServiceHour },
        seconds: round((performance.now() - started) / 1000),
        load_average_1m: loadavg()[0],
        systems: Object.fromEntries(rows.map((r) => [r[0], { incident_ga: r[1], loso_ga: r[2], incidents: r[3], templates: r[4], top5_carded: r[5], loso_setting: r[6] }])),
      },
    };
  } finally {
    redis.disconnect();
  }
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
