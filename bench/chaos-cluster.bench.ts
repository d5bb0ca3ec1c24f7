/**
 * The chaos drill (see chaos.bench.ts) with the fleet spread as over many machines: four workers
 * and two web roles as separate processes on a Redis Cluster of three masters, each with a replica.
 * The random SIGKILLs hit workers, web roles and the approving process; once, mid-run, the master
 * holding Medic's keys is SIGKILLed and its replica takes over. Same headline as the drill: lost,
 * duplicated, stuck and fix_failed_by_crash (all expected 0) and max_stall_s.
 * The fleet's state is cut into MEDIC_CHAOS_CELLS cells (default 3, MEDIC_REDIS_CELLS), so the
 * poll, the clicks and the approvals reach the shop's incidents through the cell that holds them.
 */
import { buildDist } from '../scripts/build.mjs';
import { drill } from './chaos.bench.js';
import type { BenchReport } from './report.js';

export default async function chaosClusterBench(): Promise<BenchReport> {
  await buildDist();
  return drill({ busy: 0, cluster: true, workers: 4, webs: 2, cells: Number(process.env.MEDIC_CHAOS_CELLS ?? 3) });
}
