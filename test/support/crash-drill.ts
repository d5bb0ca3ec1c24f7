import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Medic } from '../../src/app/create-medic.js';
import { FIX_STEPS, PIPELINE_STEPS, type Incident } from '../../src/domain/incident.js';
import { fixBranches } from './git-remote.js';
import { APPROVER, checkoutErrorLines, createWorld, type World, type WorldRedis, awaitIncident } from './medic-world.js';

export function exited(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(String(child.signalCode ?? child.exitCode));
    else child.once('exit', (code, signal) => resolve(String(signal ?? code)));
  });
}

/**
 * How long one drill may take, every wait in it included: on a machine busy with other drills and
 * processes a worker's boot and a lapsed job lock take longer, and the wait that ran out is named.
 */
export const DRILL_MS = 150_000;

async function approveWhenReady(world: World, medic: Medic, deadline: number): Promise<Incident> {
  const waiting = await awaitIncident(world, medic, ['awaiting_approval'], deadline);
  const result = await medic.commands.approve({ incidentId: waiting.id, proposalHash: waiting.proposal!.contentHash, caller: { userId: APPROVER, via: 'cli' } });
  if (!result.ok) throw new Error(result.message);
  return waiting;
}

export interface DrillOutcome {
  killedBy: string;
  incident: Incident;
  cards: number;
  branches: string[];
  stepAudits: Record<string, number>;
}

/**
 * Kills a worker process (SIGKILL) right after `step` is persisted, starts a fresh one, and
 * reports what the incident ended with: one card, one branch and one audit record per step is
 * the expected answer.
 */
export async function crashDrill(step: string, redis?: WorldRedis): Promise<DrillOutcome> {
  const deadline = Date.now() + DRILL_MS;
  const world = await createWorld({ llm: 'scripted', ...(redis ? { redis } : {}) });
  try {
    await world.writeLogs('shop.jsonl', checkoutErrorLines(1));
    const operator = await world.startMedic(); // no workers: the CLI's view of the same Redis
    const first = world.spawnWorker({ MEDIC_CRASH_AFTER: step });
    const isFixStep = (FIX_STEPS as readonly string[]).includes(step);
    if (isFixStep) await approveWhenReady(world, operator, deadline);
    const killedBy = await exited(first);
    world.spawnWorker();
    if (!isFixStep) await approveWhenReady(world, operator, deadline);
    const incident = await world.waitFor(async () => (await operator.store.list({ states: ['fixed', 'fix_failed'] }))[0], 'the fix after the restart', Math.max(0, deadline - Date.now()));
    const transcript = (await world.redis.lrange(`${world.prefix}console:transcript`, 0, -1)).map((row) => JSON.parse(row) as { kind: string });
    const trail = await operator.audit.list({ incidentId: incident.id });
    const stepAudits = Object.fromEntries([...PIPELINE_STEPS, ...FIX_STEPS].map((s) => [s, trail.filter((a) => a.action === `step.${s}`).length]));
    const branches = fixBranches(join(world.env.MEDIC_DATA_DIR!, 'remotes/sample-service.git'));
    return { killedBy, incident, cards: transcript.filter((t) => t.kind === 'post').length, branches, stepAudits };
  } finally {
    await world.close();
  }
}
