/**
 * Slack's bad days for cards and fixes, on the real analyze, deliver-card and apply-fix jobs, real
 * Redis and the real Slack client against the sandbox behind a fault-injecting loopback that answers
 * like Slack (429 with Retry-After, late answers, posts applied after the client gave up).
 * Scenarios, each once per run (median of 5 runs unless MEDIC_BENCH_RUNS):
 * - storm: every Web API method answers 429 (Retry-After: 1) for STORM_S seconds while INCIDENTS
 *   incidents are analysed: cards_per_incident (1.0 is the only right answer), cards_missing after
 *   the storm, calls_per_card_after_storm, max_calls_per_s against configured_calls_per_s,
 *   seconds_to_last_card after the storm ends.
 * - fresh: INCIDENTS incidents on a healthy Slack: calls_per_new_card (card calls — posts, updates,
 *   history reads, deletes — per card), card_lag_s_p95 (from the incident's intake to its card
 *   showing its final state, with INCIDENTS cards pending at once).
 * - post timeout: every card's first post answers after the client's deadline (Slack stored it),
 *   and one in three is applied only after the retry looked for it: duplicate_cards left.
 * - fix: a whole Medic approves a fix while Slack refuses every call, the card not posted yet:
 *   fix_failed_after_push and replies_missing (a fixed incident without its "Branch pushed" reply).
 */
import { cpus, loadavg } from 'node:os';
import { presentIncidentCard } from '../src/presenters/incident-card.js';
import { createSlackSandbox } from '../src/sandbox/create-slack-sandbox.js';
import { createLoopbackSlackFaults } from '../test/loopback/slack-fault-proxy.js';
import { APPROVER, checkoutErrorLines, createWorld } from '../test/support/medic-world.js';
import { createSlackFaultWorld, type SlackFaultWorld } from '../test/support/slack-fault-world.js';
import { BENCH_RUNS, median, type BenchReport } from './report.js';

const INCIDENTS = 30;
const STORM_S = 30;
const CALLS_PER_S = 10;
const RUNS = BENCH_RUNS;
const CARD_METHODS = new Set(['chat.postMessage', 'chat.update', 'chat.delete', 'conversations.history', 'conversations.replies']);

interface Run {
  cardsPerIncident: number;
  finalCards: number;
  cardsMissing: number;
  callsPerCardAfterStorm: number;
  maxCallsPerS: number;
  calls: number;
  ratelimited: number;
  analysesDuringStorm: number;
  secondsToLastCard: number;
  callsPerNewCard: number;
  cardLagP95S: number;
  duplicateCards: number;
  fixFailedAfterPush: number;
  repliesMissing: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(values.length * 0.95) - 1)] ?? 0;

async function isFinal(world: SlackFaultWorld, id: string): Promise<boolean> {
  const cards = world.cardsOf(id);
  const incident = await world.store.require(id);
  if (incident.state !== 'reported') return false;
  const render = presentIncidentCard({ incident, stats: await world.store.stats(id) });
  return cards.length === 1 && JSON.stringify([cards[0]?.text, cards[0]?.blocks]) === JSON.stringify([render.text, render.blocks]);
}

/** Polls until every incident shows its final card or `waitMs` passes; the ids still without one. */
async function untilFinal(world: SlackFaultWorld, ids: string[], waitMs: number, onFinal?: (id: string) => void): Promise<string[]> {
  const deadline = Date.now() + waitMs;
  let open = [...ids];
  while (open.length > 0 && Date.now() < deadline) {
    const done = await Promise.all(open.map((id) => isFinal(world, id)));
    for (const [i, id] of open.entries()) if (done[i]) onFinal?.(id);
    open = open.filter((_, i) => !done[i]);
    if (open.length > 0) await sleep(50);
  }
  return open;
}

const cardCalls = (world: SlackFaultWorld, since = 0) => world.faults.calls.filter((c) => c.at >= since && CARD_METHODS.has(c.method)).length;

async function stormRun(): Promise<Pick<Run, 'cardsPerIncident' | 'finalCards' | 'cardsMissing' | 'callsPerCardAfterStorm' | 'maxCallsPerS' | 'calls' | 'ratelimited' | 'analysesDuringStorm' | 'secondsToLastCard'>> {
  const world = await createSlackFaultWorld({ callsPerSecond: CALLS_PER_S, retryMinMs: 200, retryMaxMs: 5_000 });
  try {
    const stormEnds = Date.now() + STORM_S * 1000;
    world.faults.setFaults(() => (Date.now() < stormEnds ? { kind: 'ratelimited', retryAfterS: 1 } : undefined));
    const ids = await world.openIncidents(INCIDENTS);
    world.startWorkers();
    const reported = async () => (await Promise.all(ids.map((id) => world.store.get(id)))).filter((i) => i?.state === 'reported').length;
    await world.waitFor('the analyses', async () => (await reported()) === INCIDENTS, 60_000);
    const analysesDuringStorm = Date.now() < stormEnds ? await reported() : 0;
    await sleep(Math.max(0, stormEnds - Date.now()));
    const missing = await untilFinal(world, ids, 120_000);
    const lastCard = Date.now();
    await sleep(1_000); // anything still to come would show here
    const top = world.sandbox.state.messages.filter((m) => !m.threadTs && !m.ephemeralFor);
    return {
      cardsPerIncident: top.length / INCIDENTS,
      finalCards: (await Promise.all(ids.map((id) => isFinal(world, id)))).filter(Boolean).length,
      cardsMissing: missing.length,
      callsPerCardAfterStorm: cardCalls(world, stormEnds) / INCIDENTS,
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

async function freshRun(): Promise<Pick<Run, 'callsPerNewCard' | 'cardLagP95S'>> {
  const world = await createSlackFaultWorld({ callsPerSecond: CALLS_PER_S });
  try {
    const opened = Date.now();
    const ids = await world.openIncidents(INCIDENTS);
    world.startWorkers();
    const lags: number[] = [];
    const missing = await untilFinal(world, ids, 120_000, () => lags.push((Date.now() - opened) / 1000));
    await sleep(500);
    if (missing.length > 0) throw new Error(`${missing.length} cards never showed their final state on a healthy Slack`);
    return { callsPerNewCard: cardCalls(world) / INCIDENTS, cardLagP95S: p95(lags) };
  } finally {
    await world.close();
  }
}

async function timeoutRun(): Promise<Pick<Run, 'duplicateCards'>> {
  const world = await createSlackFaultWorld({ callsPerSecond: 50, timeoutMs: 300 });
  try {
    const firstTry = new Set<string>();
    let n = 0;
    world.faults.setFaults((method, form) => {
      const key = form.get('metadata') ?? '';
      if (method !== 'chat.postMessage' || form.get('thread_ts') || firstTry.has(key)) return undefined;
      firstTry.add(key);
      return n++ % 3 === 0 ? { kind: 'late-apply', ms: 1_000 } : { kind: 'slow-answer', ms: 800 };
    });
    const ids = await world.openIncidents(INCIDENTS / 3);
    world.startWorkers();
    await untilFinal(world, ids, 60_000);
    await sleep(2_500); // late copies land, and the check for them runs
    const top = world.sandbox.state.messages.filter((m) => !m.threadTs && !m.ephemeralFor);
    return { duplicateCards: top.length - new Set(top.map((m) => m.metadata?.event_payload.key)).size };
  } finally {
    await world.close();
  }
}

async function fixRun(): Promise<Pick<Run, 'fixFailedAfterPush' | 'repliesMissing'>> {
  const token = 'xoxb-bench-slack-faults';
  const sandbox = await createSlackSandbox({ port: 0, signingSecret: 'unused-here', botToken: token, medicEventsUrl: 'http://127.0.0.1:9/slack/events' });
  const faults = await createLoopbackSlackFaults(sandbox.apiUrl);
  const world = await createWorld({ llm: 'scripted' });
  try {
    let refusing = true;
    faults.setFaults(() => (refusing ? { kind: 'ratelimited', retryAfterS: 1 } : undefined));
    await world.writeLogs('shop.jsonl', checkoutErrorLines(1));
    const medic = await world.startMedic({ MEDIC_SLACK_CHANNEL: sandbox.channelId, MEDIC_CARD_RETRY_MIN_MS: '200', MEDIC_CARD_RETRY_MAX_MS: '1000' }, { botToken: token, signingSecret: 'unused-here', apiUrl: faults.apiUrl });
    await medic.startWorkers();
    const incident = await world.waitFor(async () => (await medic.store.list({ states: ['awaiting_approval'] }))[0], 'the proposal', 60_000);
    await medic.commands.approve({ incidentId: incident.id, proposalHash: incident.proposal!.contentHash, caller: { userId: APPROVER, via: 'slack' } });
    const ended = await world.waitFor(async () => {
      const current = await medic.store.get(incident.id);
      return current?.state === 'fixed' || current?.state === 'fix_failed' ? current : undefined;
    }, 'the fix', 60_000);
    refusing = false;
    const branchKey = `fix:${incident.id}:${incident.proposal!.contentHash}:branch`;
    const replied = () => sandbox.state.messages.some((m) => m.threadTs && m.metadata?.event_payload.key === branchKey);
    const deadline = Date.now() + 30_000;
    while (!replied() && Date.now() < deadline) await sleep(100);
    return { fixFailedAfterPush: ended.state === 'fix_failed' && ended.fix?.pushStatus === 'pushed' ? 1 : 0, repliesMissing: ended.state === 'fixed' && !replied() ? 1 : 0 };
  } finally {
    await world.close();
    await faults.close();
    await sandbox.close();
  }
}

async function runOnce(): Promise<Run> {
  return { ...(await stormRun()), ...(await freshRun()), ...(await timeoutRun()), ...(await fixRun()) };
}

export default async function slackFaultsBench(): Promise<BenchReport> {
  const loadBefore = loadavg()[0] ?? 0;
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await runOnce());
  const pick = (f: (r: Run) => number) => median(runs.map(f));
  const most = (f: (r: Run) => number) => Math.max(...runs.map(f));
  return {
    headline: {
      cards_per_incident: pick((r) => r.cardsPerIncident),
      final_cards_per_incident: pick((r) => r.finalCards / INCIDENTS),
      cards_missing: most((r) => r.cardsMissing),
      calls_per_new_card: pick((r) => r.callsPerNewCard),
      calls_per_card_after_storm: pick((r) => r.callsPerCardAfterStorm),
      card_lag_s_p95: pick((r) => r.cardLagP95S),
      duplicate_cards: most((r) => r.duplicateCards),
      fix_failed_after_push: most((r) => r.fixFailedAfterPush),
      replies_missing: most((r) => r.repliesMissing),
      max_calls_per_s: most((r) => r.maxCallsPerS),
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
      columns: ['run', 'cards/incident', 'missing', 'calls/new card', 'calls/card after storm', 'lag p95 s', 'duplicates', 'fix_failed after push', 'replies missing', 'max calls/s', 's to last card'],
      rows: runs.map((r, i) => [i + 1, r.cardsPerIncident, r.cardsMissing, r.callsPerNewCard, r.callsPerCardAfterStorm, r.cardLagP95S, r.duplicateCards, r.fixFailedAfterPush, r.repliesMissing, r.maxCallsPerS, r.secondsToLastCard]),
    },
    detail: { runs, loadAverageAfter: loadavg() },
  };
}
