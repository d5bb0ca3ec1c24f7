/**
 * Slack's worst day for cards: every Web API method answers 429 (Retry-After: 1) for STORM_S
 * seconds while INCIDENTS incidents are analysed, on the real analyze and deliver-card jobs, real
 * Redis and the real Slack client against the sandbox behind a fault-injecting loopback.
 * Headline (median of 5 runs unless MEDIC_BENCH_RUNS): cards_per_incident (cards in the channel
 * per incident, each card checked to show its incident's final state: 1.0 is the only right
 * answer), max_calls_per_s (the most Slack calls that arrived in any one second, against
 * configured_calls_per_s), and seconds_to_last_card after the storm ends.
 */
import { cpus, loadavg } from 'node:os';
import { presentIncidentCard } from '../src/presenters/incident-card.js';
import { createSlackFaultWorld } from '../test/support/slack-fault-world.js';
import { BENCH_RUNS, median, type BenchReport } from './report.js';

const INCIDENTS = 30;
const STORM_S = 10;
const CALLS_PER_S = 10;
const RUNS = BENCH_RUNS;

interface Run {
  cardsPerIncident: number;
  finalCards: number;
  maxCallsPerS: number;
  calls: number;
  ratelimited: number;
  analysesDuringStorm: number;
  secondsToLastCard: number;
}

async function runOnce(): Promise<Run> {
  const world = await createSlackFaultWorld({ callsPerSecond: CALLS_PER_S, retryMinMs: 200, retryMaxMs: 5_000 });
  try {
    const stormEnds = Date.now() + STORM_S * 1000;
    world.faults.setFaults(() => (Date.now() < stormEnds ? { kind: 'ratelimited', retryAfterS: 1 } : undefined));
    const ids = await world.openIncidents(INCIDENTS);
    world.startWorkers();
    const reported = async () => (await Promise.all(ids.map((id) => world.store.get(id)))).filter((i) => i?.state === 'reported').length;
    await world.waitFor('the analyses', async () => (await reported()) === INCIDENTS, 60_000);
    const analysesDuringStorm = Date.now() < stormEnds ? await reported() : 0;
    const isFinal = async (id: string) => {
      const cards = world.cardsOf(id);
      const incident = await world.store.require(id);
      const render = presentIncidentCard({ incident, stats: await world.store.stats(id) });
      return cards.length === 1 && JSON.stringify([cards[0]?.text, cards[0]?.blocks]) === JSON.stringify([render.text, render.blocks]);
    };
    await world.waitFor('every final card', async () => (await Promise.all(ids.map(isFinal))).every(Boolean), 120_000);
    const lastCard = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // anything still to come would show here
    const top = world.sandbox.state.messages.filter((m) => !m.threadTs && !m.ephemeralFor);
    return {
      cardsPerIncident: top.length / INCIDENTS,
      finalCards: (await Promise.all(ids.map(isFinal))).filter(Boolean).length,
      maxCallsPerS: world.faults.maxCallsWithin(1_000),
      calls: world.faults.calls.length,
      ratelimited: world.faults.calls.filter((c) => c.answered === 'ratelimited').length,
      analysesDuringStorm,
      secondsToLastCard: Math.max(0, (lastCard - stormEnds) / 1000),
    };
  } finally {
    await world.close();
  }
}

export default async function slackFaultsBench(): Promise<BenchReport> {
  const loadBefore = loadavg()[0] ?? 0;
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await runOnce());
  const pick = (f: (r: Run) => number) => median(runs.map(f));
  return {
    headline: {
      cards_per_incident: pick((r) => r.cardsPerIncident),
      final_cards_per_incident: pick((r) => r.finalCards / INCIDENTS),
      max_calls_per_s: Math.max(...runs.map((r) => r.maxCallsPerS)),
      configured_calls_per_s: CALLS_PER_S,
      incidents: INCIDENTS,
      storm_s: STORM_S,
      analyses_done_during_storm: pick((r) => r.analysesDuringStorm),
      seconds_to_last_card: pick((r) => r.secondsToLastCard),
      slack_calls: pick((r) => r.calls),
      ratelimited_answers: pick((r) => r.ratelimited),
      runs: RUNS,
      load_average_1m: Number(loadBefore.toFixed(2)),
      cpus: cpus().length,
    },
    table: {
      columns: ['run', 'cards/incident', 'final cards', 'max calls/s', 'calls', '429s', 'analyses in storm', 's to last card'],
      rows: runs.map((r, i) => [i + 1, r.cardsPerIncident, r.finalCards, r.maxCallsPerS, r.calls, r.ratelimited, r.analysesDuringStorm, r.secondsToLastCard]),
    },
    detail: { runs, loadAverageAfter: loadavg() },
  };
}
