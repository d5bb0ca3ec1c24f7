/**
 * The storm of issue 4, end to end on the embedded defaults: 100,000 error events of 20 families
 * (variable ids, numbers and Node stack traces) land in the log directory of a running Medic, one
 * poll tick reads them, and the real queues and workers make 20 incidents, 20 analyses (scripted
 * model) and 20 cards. Headline (median of 5 storms): storm_seconds (files written → 20th card posted),
 * storm_incidents, first_card_seconds (files written → the first card: incidents are analysed
 * while the rest of the storm is still ingested), ingest_events_per_s, and
 * analysis_overhead_ms_p50 — Medic's own time for one incident's analysis job (its nine steps:
 * persisting, audit, git reads, code search, card) with a model that answers at once, measured
 * as the median job wall time when the storm's 20 analyses run one at a time after its ingest,
 * with analysis_cpu_ms_per_incident beside it. analysis_wall_ms_p50_in_storm is the same job's
 * wall time inside the storm, where four analyses and the ingest share one core.
 */
import { cpus, loadavg } from 'node:os';
import { pollOnce } from '../jobs/poll.js';
import { analysesEnded, cardsDelivered, createWorld } from '../test/support/medic-world.js';
import { stormLines } from '../test/support/storm-events.js';
import { BENCH_RUNS, median, type BenchReport } from './report.js';

const EVENTS = 100_000;
const FAMILIES = 20;
const RUNS = BENCH_RUNS;

interface Storm {
  seconds: number;
  firstCardSeconds: number;
  ingestSeconds: number;
  incidents: number;
  analyses: number;
  cards: number;
  overheadMsP50: number;
  overheadMs: number[];
  states: Record<string, number>;
}

async function runStorm(): Promise<Storm> {
  const world = await createWorld({ llm: 'scripted' });
  try {
    // Medic is up (remotes seeded, clones synced, documents indexed, its first poll done) when
    // the storm lands; the storm is what one poll tick then reads.
    const medic = await world.startMedic();
    await medic.startWorkers();
    await world.waitFor(async () => (await medic.poll.checkpoints.get(medic.poll.source.name)) ?? undefined, 'the first poll', 60_000);
    const chunks = stormLines({ total: EVENTS });
    for (const [i, chunk] of chunks.entries()) await world.writeLogs(`storm-${i}.jsonl`, chunk);
    const transcript = `${world.prefix}console:transcript`;
    const postedBefore = await world.redis.llen(transcript);
    const started = performance.now();
    await medic.queues.poll.add('poll', {});
    let ingestedAt = 0;
    let firstCardAt = 0;
    // The probes share Medic's event loop: they read counters, and the records only when the
    // counters say the storm is through, so the bench does not time its own parsing of them.
    let ids: string[] = [];
    const incidents = await world.waitFor(async () => {
      if (!firstCardAt && (await world.redis.llen(transcript)) > postedBefore) firstCardAt = performance.now();
      if (!ingestedAt) {
        if (ids.length < FAMILIES && Object.values(await medic.store.countByState()).reduce((a, b) => a + b, 0) >= FAMILIES) ids = (await medic.store.list()).map((i) => i.id);
        const counts = await Promise.all(ids.map(async (id) => (await medic.store.stats(id))?.count ?? 0));
        if (counts.reduce((a, b) => a + b, 0) === EVENTS) ingestedAt = performance.now();
      }
      // Cards are their own job: the storm is over when the last one is posted, not when the analysis ends.
      if (!(await analysesEnded(medic, FAMILIES)) || !(await cardsDelivered(medic))) return undefined;
      const all = await medic.store.list();
      return all.length >= FAMILIES && all.every((i) => i.steps.card && i.card) ? all : undefined;
    }, 'the storm to be analysed', 600_000);
    const done = performance.now();
    const rca = (await medic.audit.list({ count: 100_000 })).filter((a) => a.action === 'step.rca').length;
    const cards = (await world.redis.lrange(transcript, 0, -1)).filter((row) => (JSON.parse(row) as { kind: string }).kind === 'post').length;
    // BullMQ stamps when a worker took each analysis and when it finished: the job's own time.
    const jobs = await medic.queues.analyze.getJobs(['completed'], 0, 1_000);
    const overheadMs = jobs.flatMap((j) => (j.processedOn && j.finishedOn ? [j.finishedOn - j.processedOn] : [])).sort((a, b) => a - b);
    const seconds = (done - started) / 1000;
    return {
      seconds, firstCardSeconds: ((firstCardAt || done) - started) / 1000, ingestSeconds: ingestedAt ? (ingestedAt - started) / 1000 : seconds, incidents: incidents.length, analyses: rca, cards,
      overheadMsP50: median(overheadMs), overheadMs,
      states: Object.fromEntries([...new Set(incidents.map((i) => i.state))].map((s) => [s, incidents.filter((i) => i.state === s).length])),
    };
  } finally {
    await world.close();
  }
}

interface Alone {
  wallMs: number[];
  cpuMsPerIncident: number;
}

/** The storm's analyses one at a time, after its ingest, alone in the process. */
async function runAnalysesAlone(): Promise<Alone> {
  const world = await createWorld({ llm: 'scripted' });
  try {
    for (const [i, chunk] of stormLines({ total: EVENTS }).entries()) await world.writeLogs(`storm-${i}.jsonl`, chunk);
    const medic = await world.startMedic({ MEDIC_ANALYZE_CONCURRENCY: '1' });
    await medic.queues.analyze.pause();
    await medic.startWorkers({ poll: false });
    await pollOnce(medic.poll);
    const cpu = process.cpuUsage();
    await medic.queues.analyze.resume();
    await world.waitFor(() => analysesEnded(medic, FAMILIES), 'the analyses', 600_000);
    const used = process.cpuUsage(cpu);
    const jobs = await medic.queues.analyze.getJobs(['completed'], 0, 1_000);
    return {
      wallMs: jobs.flatMap((j) => (j.processedOn && j.finishedOn ? [j.finishedOn - j.processedOn] : [])).sort((a, b) => a - b),
      cpuMsPerIncident: (used.user + used.system) / 1000 / FAMILIES,
    };
  } finally {
    await world.close();
  }
}

export default async function bench(): Promise<BenchReport> {
  const loadBefore = loadavg()[0] ?? 0;
  const storms: Storm[] = [];
  const alone: Alone[] = [];
  for (let i = 0; i < RUNS; i++) {
    storms.push(await runStorm());
    alone.push(await runAnalysesAlone());
  }
  const loadAfter = loadavg()[0] ?? 0;
  const mid = [...storms].sort((a, b) => a.seconds - b.seconds)[Math.floor(RUNS / 2)]!;
  const ingestPerS = median(storms.map((s) => EVENTS / s.ingestSeconds));
  return {
    headline: {
      storm_seconds: Number(mid.seconds.toFixed(2)),
      storm_incidents: mid.incidents,
      first_card_seconds: Number(median(storms.map((s) => s.firstCardSeconds)).toFixed(2)),
      ingest_events_per_s: Math.round(ingestPerS),
      analysis_overhead_ms_p50: Math.round(median(alone.map((a) => median(a.wallMs)))),
      analysis_cpu_ms_per_incident: Number(median(alone.map((a) => a.cpuMsPerIncident)).toFixed(1)),
      analysis_wall_ms_p50_in_storm: Math.round(median(storms.map((s) => s.overheadMsP50))),
    },
    table: {
      columns: ['run', 'events', 'incidents', 'analyses', 'cards', 'first card s', 'ingest s', 'total s', 'analysis p50 ms in storm', 'alone p50 ms', 'alone cpu ms'],
      rows: [
        ...storms.map((s, i) => [String(i + 1), EVENTS, s.incidents, s.analyses, s.cards, Number(s.firstCardSeconds.toFixed(2)), Number(s.ingestSeconds.toFixed(2)), Number(s.seconds.toFixed(2)), s.overheadMsP50, median(alone[i]!.wallMs), Number(alone[i]!.cpuMsPerIncident.toFixed(1))]),
        ['load average 1m before / after', '', '', '', '', '', '', `${loadBefore.toFixed(2)} / ${loadAfter.toFixed(2)}`, '', '', ''],
      ],
    },
    detail: {
      runs: RUNS, events: EVENTS, families: FAMILIES, storm_seconds_per_run: storms.map((s) => Number(s.seconds.toFixed(2))),
      ingest_seconds_per_run: storms.map((s) => Number(s.ingestSeconds.toFixed(2))), analysis_ms_median_storm: mid.overheadMs,
      analysis_alone_ms_per_run: alone.map((a) => a.wallMs),
      analyses: mid.analyses, cards: mid.cards, states: mid.states,
      analyst: 'scripted', chat: 'console', node: process.version, cpus: cpus().length, load_avg_1m_before: loadBefore, load_avg_1m_after: loadAfter,
    },
  };
}
