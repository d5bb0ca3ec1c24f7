/**
 * Cold start of the compiled command line (`node dist/cli/medic.js`, a new process each run):
 * `templates` on one line, `incidents` and `show` against incidents replayed from the sample
 * logs, and `locate` on the sample service — median of 5 runs each, with the load average.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { deleteByPrefix } from '../src/adapters/redis/connect.js';
import { buildDist } from '../scripts/build.mjs';
import { loadAverage, MEDIC_CLI, medianOf, ROOT, timeProcess } from './cli-process.js';
import type { BenchReport } from './report.js';

const RUNS = 5;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The sample's error lines as ErrorEvents, the way `replay` takes them. */
async function sampleEvents(): Promise<unknown[]> {
  const lines = (await readFile(join(ROOT, 'data/logs/shop.jsonl'), 'utf8')).split('\n').filter((l) => l.includes('"level":"ERROR"'));
  const events: unknown[] = [];
  lines.forEach((line, i) => {
    let r: Record<string, string>;
    try {
      r = JSON.parse(line) as Record<string, string>;
    } catch {
      return; // the sample keeps a cut-off line on purpose; the log source skips it too
    }
    events.push({ id: `bench-${i}`, source: 'bench', time: r.time, service: r.service, severity: 'error', message: (r.message ?? '').slice(0, 16_384), raw: `${r.message ?? ''}\n${r.stack ?? ''}`.slice(0, 65_536), correlationIds: r.requestId ? { requestId: r.requestId } : {} });
  });
  return events;
}

export default async function (): Promise<BenchReport> {
  await buildDist();
  const dir = await mkdtemp(join(tmpdir(), 'medic-bench-cli-'));
  const prefix = `medic-bench-${randomUUID().slice(0, 8)}:`;
  const env = { ...process.env, REDIS_URL, MEDIC_REDIS_PREFIX: prefix, MEDIC_DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn' };
  const redis = new Redis(REDIS_URL);
  const loadBefore = loadAverage();
  try {
    const oneLine = join(dir, 'one-line.txt');
    await writeFile(oneLine, 'Connection to 10.0.0.1 timed out after 30s\n');
    const events = join(dir, 'events.json');
    await writeFile(events, JSON.stringify(await sampleEvents()));
    const trace = join(dir, 'trace.txt');
    await writeFile(trace, "TypeError: Cannot read properties of undefined (reading 'authorizationId')\n    at PaymentClient.authorize (/srv/shop/src/payments/payment-client.ts:70:20)\n");
    await timeProcess(process.execPath, [MEDIC_CLI, 'replay', events], { env });
    const listed = await timeProcess(process.execPath, [MEDIC_CLI, 'incidents'], { env });
    const incidentId = listed.stdout.split(/\s/)[0];
    if (!incidentId?.startsWith('inc-')) throw new Error(`replay created no incident: ${listed.stdout}`);

    const cli = (args: string[], stdinFile?: string) => () => timeProcess(process.execPath, [MEDIC_CLI, ...args], { env, stdinFile });
    const templates = await medianOf(RUNS, cli(['templates', oneLine]));
    const help = await medianOf(RUNS, cli(['templates', '--help']));
    const incidents = await medianOf(RUNS, cli(['incidents']));
    const show = await medianOf(RUNS, cli(['show', incidentId]));
    const locate = await medianOf(RUNS, cli(['locate', join(ROOT, 'data/sample-service')], trace));
    // For scale: the same one-line templates through `npm run medic`, npm's own start included.
    const viaNpm = await medianOf(RUNS, () => timeProcess('npm', ['run', '--silent', 'medic', '--', 'templates', oneLine], { env }));
    // The package's bin entry through npx, as the README offers it in Medic's directory.
    const viaNpx = await medianOf(RUNS, () => timeProcess('npx', ['--no-install', 'medic', 'templates', oneLine], { env }));
    const node = await medianOf(RUNS, () => timeProcess(process.execPath, ['-e', '0'], { env }));
    const loadAfter = loadAverage();
    const rows: (string | number)[][] = [
      ['templates (one line)', Math.round(templates.median), templates.all.join(' ')],
      ['templates --help', Math.round(help.median), help.all.join(' ')],
      ['incidents', Math.round(incidents.median), incidents.all.join(' ')],
      ['show', Math.round(show.median), show.all.join(' ')],
      ['locate', Math.round(locate.median), locate.all.join(' ')],
      ['npm run medic -- templates', Math.round(viaNpm.median), viaNpm.all.join(' ')],
      ['npx medic templates', Math.round(viaNpx.median), viaNpx.all.join(' ')],
      ['node -e 0 (floor)', Math.round(node.median), node.all.join(' ')],
      ['load average before / after', '-', `${loadBefore} / ${loadAfter}`],
    ];
    return {
      headline: {
        cli_templates_ms: Math.round(templates.median),
        cli_templates_help_ms: Math.round(help.median),
        cli_incidents_ms: Math.round(incidents.median),
        cli_show_ms: Math.round(show.median),
        cli_locate_ms: Math.round(locate.median),
      },
      table: { columns: ['command', 'median_ms', `runs (${RUNS})`], rows },
      detail: { runs: RUNS, npm_run_templates_ms: Math.round(viaNpm.median), npx_templates_ms: Math.round(viaNpx.median), node_floor_ms: Math.round(node.median), load_average_before: loadBefore, load_average_after: loadAfter },
    };
  } finally {
    await deleteByPrefix(redis, prefix);
    redis.disconnect();
    await rm(dir, { recursive: true, force: true });
  }
}
