/**
 * Where one analysis spends Medic's own time: a storm (PROFILE_EVENTS, default 2,000 events of 20
 * families) is ingested first with the analyze queue paused, then the 20 analyses run on the real
 * workers with the scripted model, alone in the process. Prints each job's wall time (BullMQ
 * processedOn → finishedOn), the process CPU spent per analysis, the time in each step and in each
 * pipeline port, and with PROFILE_COMMANDS=1 the Redis commands sent on the shared client by caller.
 * Not a benchmark of record (`npm run bench -- storm` is): a tool for finding the cost.
 *
 *   node --import tsx bench/analysis-profile.ts [concurrency]
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/analysis-profile.ts 4
 */
import { pollOnce } from '../jobs/poll.js';
import type { ErrorEvent } from '../src/domain/event.js';
import type { PipelineDeps } from '../src/pipeline/pipeline-deps.js';
import { analysesEnded, cardsDelivered, createWorld } from '../test/support/medic-world.js';
import { stormLines } from '../test/support/storm-events.js';

const concurrency = process.argv[2] ?? '4';
const EVENTS = Number(process.env.PROFILE_EVENTS ?? 2_000);
const FAMILIES = 20;

const spent = new Map<string, { calls: number; ms: number }>();
function timed<T extends object>(name: string, target: T): T {
  return new Proxy(target, {
    get(obj, key, receiver) {
      const value = Reflect.get(obj, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const started = performance.now();
        const note = () => {
          const row = spent.get(`${name}.${String(key)}`) ?? { calls: 0, ms: 0 };
          row.calls += 1;
          row.ms += performance.now() - started;
          spent.set(`${name}.${String(key)}`, row);
        };
        const result = (value as (...a: unknown[]) => unknown).apply(obj, args);
        if (result instanceof Promise) return result.finally(note);
        note();
        return result;
      };
    },
  });
}

const world = await createWorld({ llm: 'scripted' });
try {
  for (const [i, chunk] of stormLines({ total: EVENTS }).entries()) await world.writeLogs(`storm-${i}.jsonl`, chunk);
  const medic = await world.startMedic({ MEDIC_ANALYZE_CONCURRENCY: concurrency });
  await medic.queues.analyze.pause();
  await medic.startWorkers({ poll: false });
  await pollOnce(medic.poll);
  const waiting = await medic.queues.analyze.getJobCounts('waiting', 'paused', 'prioritized');
  process.stdout.write(`ingested ${EVENTS} events; analyses queued: ${JSON.stringify(waiting)}\n`);

  const p: PipelineDeps = medic.pipeline;
  // The pipeline's ports, each timed: the same object the analyze worker holds.
  const original: PipelineDeps = { ...p };
  const ports = timed('pipeline', {
    findSimilarDocs: (input: Parameters<PipelineDeps['findSimilarDocs']>[0]) => original.findSimilarDocs(input),
    findRecentChanges: (input: Parameters<PipelineDeps['findRecentChanges']>[0]) => original.findRecentChanges(input),
    searchCode: (input: Parameters<PipelineDeps['searchCode']>[0]) => original.searchCode(input),
    findSuspectCommits: (input: { event: ErrorEvent }) => original.findSuspectCommits?.(input) ?? Promise.resolve([]),
    findRevert: (input: Parameters<NonNullable<PipelineDeps['findRevert']>>[0]) => original.findRevert?.(input) ?? Promise.resolve({ note: '' }),
    requestCard: (id: string, version: number, priority: 'final' | 'progress') => original.requestCard?.(id, version, priority) ?? Promise.resolve(),
  });
  Object.assign(p, ports);
  p.store = timed('store', p.store);
  p.logs = timed('logs', p.logs);
  if (p.failureLinks) p.failureLinks = timed('failureLinks', p.failureLinks);
  p.analystFor = (id) => timed('analyst', original.analystFor(id));

  const commands = new Map<string, number>();
  let counting = false;
  const redis = world.redis as unknown as { sendCommand: (command: { name: string }, ...rest: unknown[]) => unknown };
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (command, ...rest) => {
    if (counting && process.env.PROFILE_COMMANDS) {
      const frames = (new Error().stack ?? '').split('\n').filter((l) => l.includes('/src/') || l.includes('/jobs/') || l.includes('bullmq/dist/cjs/classes/'));
      const caller = frames.slice(0, 3).map((l) => l.trim().replace(/^at /, '').replace(/\(.*\/(src|jobs|classes)\//, '($1/').replace(/:\d+\)$/, ')')).join(' < ');
      const k = `${command.name}  ${caller}`;
      commands.set(k, (commands.get(k) ?? 0) + 1);
    }
    return send(command, ...rest);
  };
  const cpu = process.cpuUsage();
  counting = true;
  const fromUs = process.hrtime.bigint() / 1000n;
  const started = performance.now();
  await medic.queues.analyze.resume();
  await world.waitFor(() => analysesEnded(medic, FAMILIES), 'the analyses', 600_000);
  const analysedMs = performance.now() - started;
  counting = false;
  const used = process.cpuUsage(cpu);
  process.stdout.write(`profile window us ${fromUs} ${process.hrtime.bigint() / 1000n}\n`);
  await world.waitFor(async () => (await cardsDelivered(medic)) || undefined, 'the cards', 600_000);
  const deliveredMs = performance.now() - started;

  const jobs = await medic.queues.analyze.getJobs(['completed'], 0, 1_000);
  const wall = jobs.flatMap((j) => (j.processedOn && j.finishedOn ? [j.finishedOn - j.processedOn] : [])).sort((a, b) => a - b);
  const cpuMs = (used.user + used.system) / 1000;
  process.stdout.write(`concurrency ${concurrency}: ${wall.length} analyses in ${analysedMs.toFixed(0)} ms (cards delivered at ${deliveredMs.toFixed(0)} ms)\n`);
  process.stdout.write(`job wall ms p50 ${wall[Math.floor(wall.length / 2)]}  min ${wall[0]}  max ${wall.at(-1)}  all ${wall.join(' ')}\n`);
  process.stdout.write(`process CPU over the analyses: ${cpuMs.toFixed(0)} ms, ${(cpuMs / FAMILIES).toFixed(1)} ms per analysis\n`);
  if (process.env.PROFILE_DUMP) (await import("node:fs")).writeFileSync(process.env.PROFILE_DUMP, JSON.stringify(await medic.store.list()));
  const sizes = (await medic.store.list()).map((i) => JSON.stringify(i).length).sort((a, b) => a - b);
  process.stdout.write(`incident record bytes p50 ${sizes[Math.floor(sizes.length / 2)]}  max ${sizes.at(-1)}\n`);

  const steps = (await medic.pipeline.metrics.stepDuration.get()).values.filter((v) => v.metricName?.endsWith('_sum'));
  process.stdout.write('\nstep wall (sum over the analyses, ms):\n');
  for (const v of steps) process.stdout.write(`  ${String(v.labels.step).padEnd(16)} ${(v.value * 1000).toFixed(0).padStart(7)}  (${(v.value * 1000 / FAMILIES).toFixed(1)} per analysis)\n`);
  process.stdout.write('\nport calls (sum, ms):\n');
  for (const [name, row] of [...spent.entries()].sort((a, b) => b[1].ms - a[1].ms)) {
    process.stdout.write(`  ${name.padEnd(32)} ${String(row.calls).padStart(5)} calls ${row.ms.toFixed(0).padStart(7)} ms  (${(row.ms / row.calls).toFixed(1)} per call)\n`);
  }
  if (commands.size > 0) {
    process.stdout.write(`\nredis commands on the shared client (${[...commands.values()].reduce((a, b) => a + b, 0)}):\n`);
    for (const [k, n] of [...commands.entries()].sort((a, b) => b[1] - a[1])) process.stdout.write(`  ${String(n).padStart(5)} ${k}\n`);
  }
} finally {
  await world.close();
  process.exit(0);
}
